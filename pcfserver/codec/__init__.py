"""The PCF wire codec: frozen dataclasses in, bytes out, and back."""

from pcfserver.codec.decoder import StreamDecoder, decode
from pcfserver.codec.encoder import encode
from pcfserver.codec.model import (
    PARAMETER_TYPES,
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    PcfError,
    String,
    StringFilter,
    StringList,
)

__all__ = [
    "PARAMETER_TYPES",
    "ByteString",
    "ByteStringFilter",
    "Group",
    "Integer",
    "Integer64",
    "Integer64List",
    "IntegerFilter",
    "IntegerList",
    "Message",
    "Parameter",
    "PcfError",
    "StreamDecoder",
    "String",
    "StringFilter",
    "StringList",
    "decode",
    "encode",
]
