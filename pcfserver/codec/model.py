"""The typed, frozen view of PCF messages that the rest of the code sees.

Construct containers never leave the codec; these dataclasses do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeAlias, TypeVar, cast

from pcfserver import names

T = TypeVar("T")


class PcfError(ValueError):
    """A structure that breaks a PCF rule: the MQRCCF/MQRC reason, the parameter and the byte offset."""

    def __init__(
        self,
        reason: int,
        message: str = "",
        *,
        parameter_id: int | None = None,
        offset: int | None = None,
    ) -> None:
        self.reason = reason
        self.parameter_id = parameter_id
        self.offset = offset
        self.detail = message
        where = f" at offset {offset}" if offset is not None else ""
        super().__init__(f"{self.reason_name}{where}: {message}" if message else f"{self.reason_name}{where}")

    @property
    def reason_name(self) -> str:
        return names.reason_name(self.reason) or str(self.reason)

    def at(self, base: int) -> PcfError:
        """The same error with its offset moved by ``base`` (offsets are relative while decoding)."""
        return PcfError(
            self.reason,
            self.detail,
            parameter_id=self.parameter_id,
            offset=None if self.offset is None else self.offset + base,
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_error, (self.reason, self.detail, self.parameter_id, self.offset))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PcfError)
            and (self.reason, self.detail, self.parameter_id, self.offset)
            == (other.reason, other.detail, other.parameter_id, other.offset)
        )

    def __hash__(self) -> int:
        return hash((self.reason, self.detail, self.parameter_id, self.offset))


def fast_builder(cls: type[T]) -> Callable[..., T]:
    """A positional constructor for a frozen slots dataclass that sets each slot directly.

    It skips the frozen ``__setattr__`` dance of the generated ``__init__`` (half the cost of
    a 15-field Message); the decoder uses it for values it has already validated.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    scope.update({f"_set_{n}": cls.__dict__[n].__set__ for n in names})
    body = "".join(f"    _set_{n}(obj, {n})\n" for n in names)
    exec(f"def build({', '.join(names)}):\n    obj = _new(_cls)\n{body}    return obj\n", scope)
    return cast(Callable[..., T], scope["build"])


def _rebuild_error(reason: int, detail: str, parameter_id: int | None, offset: int | None) -> PcfError:
    return PcfError(reason, detail, parameter_id=parameter_id, offset=offset)


@dataclass(frozen=True, slots=True)
class Integer:
    """MQCFIN: a 32-bit integer parameter."""

    STRUCT: ClassVar[str] = "MQCFIN"
    parameter: int
    value: int


@dataclass(frozen=True, slots=True)
class Integer64:
    """MQCFIN64: a 64-bit integer parameter."""

    STRUCT: ClassVar[str] = "MQCFIN64"
    parameter: int
    value: int


@dataclass(frozen=True, slots=True)
class String:
    """MQCFST: a character string; ``value`` is exactly StringLength bytes, decoded by ``ccsid``."""

    STRUCT: ClassVar[str] = "MQCFST"
    parameter: int
    value: str
    ccsid: int = 0
    string_length: int | None = field(default=None, compare=False)
    """StringLength as read from the wire (None when built in code: the encoded length)."""


@dataclass(frozen=True, slots=True)
class IntegerList:
    """MQCFIL: a list of 32-bit integers."""

    STRUCT: ClassVar[str] = "MQCFIL"
    parameter: int
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Integer64List:
    """MQCFIL64: a list of 64-bit integers."""

    STRUCT: ClassVar[str] = "MQCFIL64"
    parameter: int
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StringList:
    """MQCFSL: strings of one common length (shorter ones are blank-padded when encoded)."""

    STRUCT: ClassVar[str] = "MQCFSL"
    parameter: int
    values: tuple[str, ...]
    ccsid: int = 0
    string_length: int | None = field(default=None, compare=False)
    """StringLength (of each string) as read from the wire (None when built in code)."""


@dataclass(frozen=True, slots=True)
class ByteString:
    """MQCFBS: opaque bytes, never converted."""

    STRUCT: ClassVar[str] = "MQCFBS"
    parameter: int
    value: bytes


@dataclass(frozen=True, slots=True)
class Group:
    """MQCFGR: a group of parameters; counts as one parameter where it stands."""

    STRUCT: ClassVar[str] = "MQCFGR"
    parameter: int
    parameters: tuple[Parameter, ...]


@dataclass(frozen=True, slots=True)
class IntegerFilter:
    """MQCFIF: an integer filter (Inquire commands)."""

    STRUCT: ClassVar[str] = "MQCFIF"
    parameter: int
    operator: int
    value: int


@dataclass(frozen=True, slots=True)
class StringFilter:
    """MQCFSF: a string filter (Inquire commands)."""

    STRUCT: ClassVar[str] = "MQCFSF"
    parameter: int
    operator: int
    value: str
    ccsid: int = 0


@dataclass(frozen=True, slots=True)
class ByteStringFilter:
    """MQCFBF: a byte-string filter (Inquire commands)."""

    STRUCT: ClassVar[str] = "MQCFBF"
    parameter: int
    operator: int
    value: bytes


Parameter: TypeAlias = (
    Integer
    | Integer64
    | String
    | IntegerList
    | Integer64List
    | StringList
    | ByteString
    | Group
    | IntegerFilter
    | StringFilter
    | ByteStringFilter
)

PARAMETER_TYPES: tuple[type[Parameter], ...] = (
    Integer,
    Integer64,
    String,
    IntegerList,
    Integer64List,
    StringList,
    ByteString,
    Group,
    IntegerFilter,
    StringFilter,
    ByteStringFilter,
)


@dataclass(frozen=True, slots=True)
class Message:
    """One PCF message: the MQCFH fields and its top-level parameters.

    The fields after ``parameters`` describe where a decoded message came from; they do not
    take part in equality, so a message equals its re-decoded self in either byte order.
    ``error`` is set only by tolerant decoding, on a span that could not be decoded whole;
    ``warnings`` holds the problems tolerant decoding accepted.
    """

    command: int
    parameters: tuple[Parameter, ...] = ()
    type: int = 1
    version: int = 1
    msg_seq_number: int = 1
    control: int = 1
    comp_code: int = 0
    reason: int = 0
    byte_order: str = field(default="big", compare=False)
    offset: int = field(default=0, compare=False)
    length: int = field(default=0, compare=False)
    struc_length: int = field(default=36, compare=False)
    parameter_count: int | None = field(default=None, compare=False)
    error: PcfError | None = field(default=None, compare=False)
    warnings: tuple[PcfError, ...] = field(default=(), compare=False)

    def get(self, parameter: int) -> Parameter | None:
        """The first top-level parameter with this id, or None."""
        for item in self.parameters:
            if item.parameter == parameter:
                return item
        return None

    def int_value(self, parameter: int, default: int | None = None) -> int | None:
        item = self.get(parameter)
        if isinstance(item, (Integer, Integer64)):
            return item.value
        return default

    def str_value(self, parameter: int, default: str | None = None) -> str | None:
        item = self.get(parameter)
        if isinstance(item, String):
            return item.value
        return default


# Positional builders of the values every answer is made of, for code that has checked them already (the decoder, the
# engine's responses): ``new_message(command, parameters, type, version, msg_seq_number, control, comp_code, reason,
# byte_order, offset, length, struc_length, parameter_count, error, warnings)``, ``new_integer(parameter, value)``,
# ``new_string(parameter, value, ccsid, string_length)``.
new_message = fast_builder(Message)
new_integer = fast_builder(Integer)
new_string = fast_builder(String)
