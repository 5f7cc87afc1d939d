from .chunked_request import Stream
