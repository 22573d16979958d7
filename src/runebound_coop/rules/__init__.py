"""The rules: setup, pool verbs, hero actions, the enemy's board, enemy choices and the round flow."""
