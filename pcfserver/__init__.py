"""pcfserver: a PCF-compatible binary admin server for IBM MQ-style queue administration."""

from pcfserver.codec import (
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
    StreamDecoder,
    String,
    StringFilter,
    StringList,
    decode,
    encode,
)
from pcfserver.engine.messages import MessageDescriptor, MQIError
from pcfserver.qmgr import QueueManager, Session, open_queue_manager

__version__ = "0.1.0"

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
    "MQIError",
    "Message",
    "MessageDescriptor",
    "Parameter",
    "PcfError",
    "QueueManager",
    "Session",
    "StreamDecoder",
    "String",
    "StringFilter",
    "StringList",
    "decode",
    "encode",
    "open_queue_manager",
]
