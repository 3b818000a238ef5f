"""Message selectors on subscriptions (DEFINE SUB SELECTOR, MQSUB SelectionString): IBM's subset of SQL-92
conditional expressions (IBM "Message selector syntax", q023010_), parsed once and evaluated on a publication's
message properties.  Sans-IO, no engine knowledge.

* Literals: strings in single quotes ('' is a quote), exact numbers (57, -957, +62, a trailing L; 0x1F hexadecimal;
  a leading 0 makes an octal number, so 09 is an error, as IBM states), approximate numbers (7E3, -57.9E2, 7., .5),
  TRUE and FALSE.  Identifiers: a letter, '_' or '$', then letters, digits, '_', '$' or '.' (property names such as
  usr.colour); case sensitive.  Keywords (AND OR NOT LIKE ESCAPE IN BETWEEN IS NULL TRUE FALSE) are not, and are
  not identifiers.
* Operators, by precedence: unary + -; * /; + -; comparisons = <> < > <= >=, [NOT] LIKE pattern [ESCAPE 'c'],
  [NOT] BETWEEN a AND b, [NOT] IN (literal, ...), IS [NOT] NULL; NOT; AND; OR.  Parentheses group.
* SQL's three values: a property the message does not carry is NULL, and any comparison with NULL is unknown; NOT
  unknown is unknown; FALSE AND unknown is FALSE, TRUE OR unknown is TRUE.  A publication is selected only when the
  whole expression is TRUE.
* The message model keeps every property as text (formats/pubsub-rules.tsv): a property compared with a number is
  read as a number when its text is one (else the comparison is unknown), with TRUE/FALSE when its text is 'true'
  or 'false' (any case); strings and booleans compare with = and <> only (the JMS rule IBM's syntax follows, K).

:func:`compile_selector` answers a predicate over ``{name: text}``, or raises :class:`SelectorError` for text that
is not a selector (never anything else, whatever the text).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping

Props = Mapping[str, str]
Value = str | int | float | bool | None
Eval = Callable[[Props], Value]
Predicate = Callable[[Props], bool]

KEYWORDS = frozenset(("AND", "OR", "NOT", "LIKE", "ESCAPE", "IN", "BETWEEN", "IS", "NULL", "TRUE", "FALSE"))
MAX_LENGTH = 10240  # MQ_SELECTOR_LENGTH

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<string>'(?:[^']|'')*')
  | (?P<approx>(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)
  | (?P<hex>0[xX][0-9a-fA-F]+)
  | (?P<exact>\d+[lL]?)
  | (?P<word>[A-Za-z_$][A-Za-z0-9_$.]*)
  | (?P<op><>|<=|>=|[=<>+\-*/(),])
    """,
    re.VERBOSE,
)

# token kinds: 's' string, 'n' number, 'w' identifier, 'k' keyword, 'o' operator, 'e' end
Token = tuple[str, object]


class SelectorError(ValueError):
    """Not a selector: the text and where it went wrong."""


def _tokens(text: str) -> list[Token]:
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise SelectorError(f"unexpected character {text[pos]!r} at {pos}")
        pos = m.end()
        kind = m.lastgroup
        value = m.group()
        if kind == "space":
            continue
        if kind == "string":
            out.append(("s", value[1:-1].replace("''", "'")))
        elif kind == "approx":
            out.append(("n", float(value)))
        elif kind == "hex":
            out.append(("n", int(value[2:], 16)))
        elif kind == "exact":
            digits = value.rstrip("lL")
            if len(digits) > 1 and digits[0] == "0":
                if not set(digits) <= set("01234567"):
                    raise SelectorError(f"{value!r} is not an octal number")
                out.append(("n", int(digits, 8)))
            else:
                out.append(("n", int(digits)))
        elif kind == "word":
            upper = value.upper()
            out.append(("k", upper) if upper in KEYWORDS else ("w", value))
        else:
            out.append(("o", value))
    out.append(("e", None))
    return out


# Static kinds of a node: 'b' a condition, 'v' a value of unknown type (a property), 'n' number, 's' string,
# 'l' a boolean literal.
Node = tuple[str, Eval]


def _truth(value: Value) -> bool | None:
    """A value as a condition: TRUE, FALSE or unknown (a property's text 'true'/'false')."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        low = value.lower()
        if low == "true":
            return True
        if low == "false":
            return False
    return None


def _number(value: Value) -> int | float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return value
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return None


_ORDER = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}


def _compare(op: str, a: Value, b: Value) -> bool | None:
    """``a op b`` under the selector's rules (unknown when either is NULL or the types do not meet)."""
    if a is None or b is None:
        return None
    if isinstance(a, str) and isinstance(b, str):  # two properties, or a property and a string literal
        if op in _ORDER:
            x, y = _number(a), _number(b)
            return None if x is None or y is None else bool(_ORDER[op](x, y))
        return (a == b) if op == "=" else (a != b)
    if isinstance(a, bool) or isinstance(b, bool):
        x_b, y_b = _truth(a), _truth(b)
        if x_b is None or y_b is None or op in _ORDER:
            return None
        return (x_b == y_b) if op == "=" else (x_b != y_b)
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return None
    if op == "=":
        return x == y
    if op == "<>":
        return x != y
    return bool(_ORDER[op](x, y))


def _like_regex(pattern: str, escape: str | None) -> re.Pattern[str]:
    parts: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape:
            i += 1
            if i == len(pattern):
                raise SelectorError("LIKE pattern ends with its escape character")
            parts.append(re.escape(pattern[i]))
        elif c == "%":
            parts.append(".*")
        elif c == "_":
            parts.append(".")
        else:
            parts.append(re.escape(c))
        i += 1
    return re.compile("".join(parts), re.DOTALL)


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        token = self.tokens[self.i]
        if token[0] != "e":
            self.i += 1
        return token

    def accept(self, kind: str, value: object) -> bool:
        if self.tokens[self.i] == (kind, value):
            self.i += 1
            return True
        return False

    def expect(self, kind: str, value: object) -> None:
        if not self.accept(kind, value):
            raise SelectorError(f"expected {value!r}, found {self.peek()[1]!r}")

    # conditions -------------------------------------------------------------

    def condition(self) -> Eval:
        kind, fn = self.or_expr()
        return self.as_condition(kind, fn)

    @staticmethod
    def as_condition(kind: str, fn: Eval) -> Eval:
        if kind in ("b", "l"):
            return fn
        if kind == "v":
            return lambda p: _truth(fn(p))
        raise SelectorError("a number or a string is not a condition")

    def or_expr(self) -> Node:
        kind, left = self.and_expr()
        while self.accept("k", "OR"):
            a = self.as_condition(kind, left)
            b = self.as_condition(*self.and_expr())
            left, kind = _or(a, b), "b"
        return kind, left

    def and_expr(self) -> Node:
        kind, left = self.not_expr()
        while self.accept("k", "AND"):
            a = self.as_condition(kind, left)
            b = self.as_condition(*self.not_expr())
            left, kind = _and(a, b), "b"
        return kind, left

    def not_expr(self) -> Node:
        if self.accept("k", "NOT"):
            inner = self.as_condition(*self.not_expr())

            def negate(p: Props) -> Value:
                value = inner(p)
                return None if value is None else not value

            return "b", negate
        return self.comparison()

    def comparison(self) -> Node:
        kind, left = self.additive()
        token = self.peek()
        if token[0] == "o" and token[1] in ("=", "<>", "<", ">", "<=", ">="):
            self.take()
            op = str(token[1])
            rkind, right = self.additive()
            self.operand(kind)
            self.operand(rkind)
            if op in _ORDER and "s" in (kind, rkind):
                raise SelectorError(f"strings compare with = and <> only, not {op}")
            return "b", lambda p: _compare(op, left(p), right(p))
        if token == ("k", "IS"):
            self.take()
            negated = self.accept("k", "NOT")
            self.expect("k", "NULL")
            self.operand(kind)
            if negated:
                return "b", lambda p: left(p) is not None
            return "b", lambda p: left(p) is None
        negated = self.accept("k", "NOT")
        if self.accept("k", "LIKE"):
            return "b", self.like(kind, left, negated)
        if self.accept("k", "BETWEEN"):
            return "b", self.between(kind, left, negated)
        if self.accept("k", "IN"):
            return "b", self.in_list(kind, left, negated)
        if negated:
            raise SelectorError("NOT must be followed by LIKE, BETWEEN or IN here")
        return kind, left

    @staticmethod
    def operand(kind: str) -> None:
        if kind == "b":
            raise SelectorError("a condition cannot be compared")

    def like(self, kind: str, left: Eval, negated: bool) -> Eval:
        if kind not in ("v", "s"):
            raise SelectorError("LIKE needs a string")
        pattern = self.take()
        if pattern[0] != "s":
            raise SelectorError("LIKE needs a string literal pattern")
        escape: str | None = None
        if self.accept("k", "ESCAPE"):
            given = self.take()
            if given[0] != "s" or len(str(given[1])) != 1:
                raise SelectorError("ESCAPE needs a one-character string literal")
            escape = str(given[1])
        regex = _like_regex(str(pattern[1]), escape)

        def like(p: Props) -> Value:
            value = left(p)
            if not isinstance(value, str):
                return None
            return (regex.fullmatch(value) is None) if negated else (regex.fullmatch(value) is not None)

        return like

    def between(self, kind: str, left: Eval, negated: bool) -> Eval:
        lkind, low = self.additive()
        self.expect("k", "AND")
        hkind, high = self.additive()
        for k in (kind, lkind, hkind):
            if k not in ("v", "n"):
                raise SelectorError("BETWEEN compares numbers")

        def between(p: Props) -> Value:
            value, lo, hi = _number(left(p)), _number(low(p)), _number(high(p))
            if value is None or lo is None or hi is None:
                return None
            inside = lo <= value <= hi
            return not inside if negated else inside

        return between

    def in_list(self, kind: str, left: Eval, negated: bool) -> Eval:
        self.operand(kind)
        self.expect("o", "(")
        items: list[Value] = []
        while True:
            token = self.take()
            sign = 1
            if token[0] == "o" and token[1] in ("+", "-"):
                sign = -1 if token[1] == "-" else 1
                token = self.take()
                if token[0] != "n":
                    raise SelectorError("IN takes literals")
            if token[0] == "s":
                items.append(str(token[1]))
            elif token[0] == "n":
                number = token[1]
                assert isinstance(number, (int, float))
                items.append(sign * number)
            else:
                raise SelectorError("IN takes literals")
            if self.accept("o", ")"):
                break
            self.expect("o", ",")

        def inside(p: Props) -> Value:
            value = left(p)
            if value is None:
                return None
            found = any(_compare("=", value, item) for item in items)
            return not found if negated else found

        return inside

    # values -----------------------------------------------------------------

    def additive(self) -> Node:
        kind, left = self.multiplicative()
        while True:
            token = self.peek()
            if token[0] != "o" or token[1] not in ("+", "-"):
                return kind, left
            self.take()
            rkind, right = self.multiplicative()
            left, kind = _arith(str(token[1]), kind, left, rkind, right), "n"

    def multiplicative(self) -> Node:
        kind, left = self.unary()
        while True:
            token = self.peek()
            if token[0] != "o" or token[1] not in ("*", "/"):
                return kind, left
            self.take()
            rkind, right = self.unary()
            left, kind = _arith(str(token[1]), kind, left, rkind, right), "n"

    def unary(self) -> Node:
        token = self.peek()
        if token[0] == "o" and token[1] in ("+", "-"):
            self.take()
            kind, inner = self.unary()
            if kind not in ("n", "v"):
                raise SelectorError("a sign needs a number")
            if token[1] == "+":
                return "n", lambda p: _number(inner(p))

            def minus(p: Props) -> Value:
                value = _number(inner(p))
                return None if value is None else -value

            return "n", minus
        return self.primary()

    def primary(self) -> Node:
        kind, value = self.take()
        if kind == "s":
            text = str(value)
            return "s", lambda p: text
        if kind == "n":
            assert isinstance(value, (int, float))
            number = value
            return "n", lambda p: number
        if kind == "w":
            name = str(value)
            return "v", lambda p: p.get(name)
        if kind == "k" and value in ("TRUE", "FALSE"):
            flag = value == "TRUE"
            return "l", lambda p: flag
        if (kind, value) == ("o", "("):
            inner = self.or_expr()
            self.expect("o", ")")
            return inner
        raise SelectorError(f"unexpected {value!r}" if kind != "e" else "the selector ends too soon")


def _or(a: Eval, b: Eval) -> Eval:
    def either(p: Props) -> Value:
        x = a(p)
        if x is True:
            return True
        y = b(p)
        if y is True:
            return True
        return None if x is None or y is None else False

    return either


def _and(a: Eval, b: Eval) -> Eval:
    def both(p: Props) -> Value:
        x = a(p)
        if x is False:
            return False
        y = b(p)
        if y is False:
            return False
        return None if x is None or y is None else True

    return both


_ARITH: dict[str, Callable[[float, float], float]] = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def _arith(op: str, lkind: str, left: Eval, rkind: str, right: Eval) -> Eval:
    if lkind not in ("n", "v") or rkind not in ("n", "v"):
        raise SelectorError(f"{op} needs numbers")
    fn = _ARITH[op]

    def arith(p: Props) -> Value:
        x, y = _number(left(p)), _number(right(p))
        if x is None or y is None:
            return None
        if op == "/" and y == 0:
            return None  # no value (chosen: unknown rather than an error at publish time)
        return fn(x, y)

    return arith


def compile_selector(text: str) -> Predicate | None:
    """The predicate a selector stands for (None: a blank selector selects every publication); SelectorError when
    ``text`` is not a selector."""
    if not text.strip():
        return None
    if len(text) > MAX_LENGTH:
        raise SelectorError(f"longer than {MAX_LENGTH} characters")
    try:
        parser = _Parser(_tokens(text))
        condition = parser.condition()
        if parser.peek()[0] != "e":
            raise SelectorError(f"unexpected {parser.peek()[1]!r} after the condition")
    except RecursionError:
        raise SelectorError("nested too deeply") from None

    def selected(properties: Props) -> bool:
        try:
            return condition(properties) is True
        except (RecursionError, OverflowError, ValueError):
            return False

    return selected


def check_selector(text: str) -> None:
    """Raises SelectorError unless ``text`` is a selector (or blank)."""
    compile_selector(text)
