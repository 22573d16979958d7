"""Design by simulation: compare variants on the same deals, tune content toward targets, certify on fresh seeds.

Needs the ``design`` extra (SciPy, statsmodels, Optuna, tomli-w). See ``docs/design.md``.
"""

from tabletop_core.design.compare import Comparison, Variant, compare, pack_variant
from tabletop_core.design.paired import Difference, adjust, paired_difference

__all__ = ["Comparison", "Difference", "Variant", "adjust", "compare", "pack_variant", "paired_difference"]
