"""The local PyPI of ``npm run release:local``: pypiserver serving (and taking uploads into) the
folder given, without authentication, on 127.0.0.1 on a free port, which it prints alone on the
first line of stdout. Run with the release tools' Python (scripts/release/python-tools.ts).

    python pypi-server.py <packages folder>
"""
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pypiserver


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):  # pylint: disable=arguments-differ
        pass


app = pypiserver.app(roots=[sys.argv[1]], authenticate=[], password_file=".")
server = make_server("127.0.0.1", 0, app, handler_class=QuietHandler)
print(server.server_port, flush=True)
server.serve_forever()
