"""The DSL's expression kinds, one class each (tree mapping, checks and closure, fast form): importing registers them.

See ``mason.dsl.constructs`` ("Expressions") for what a definition holds.
"""

from mason.dsl.expressions.calls import CallForm, ComprehensionForm
from mason.dsl.expressions.leaves import AttrForm, IndexForm, ListLitForm, LiteralForm, NameForm
from mason.dsl.expressions.operators import BinOpForm, BoolOpForm, IfExprForm, NegForm, NotForm

__all__ = [
    "AttrForm",
    "BinOpForm",
    "BoolOpForm",
    "CallForm",
    "ComprehensionForm",
    "IfExprForm",
    "IndexForm",
    "ListLitForm",
    "LiteralForm",
    "NameForm",
    "NegForm",
    "NotForm",
]
