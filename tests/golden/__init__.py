"""Golden records: seeded games recorded before the renovation, replayed after every change."""
