"""The PCF admin server: a trio TCP shell over the sans-IO codec and the engine."""

from pcfserver.server.committer import Engine
from pcfserver.server.core import PcfServer, ServerConfig
from pcfserver.server.protocol import FramingError, ServerProtocol, encode_responses

__all__ = ["Engine", "FramingError", "PcfServer", "ServerConfig", "ServerProtocol", "encode_responses"]
