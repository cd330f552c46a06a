"""Offline test webs: load a recorded web (WARC + labels + seeds) and serve it as a loopback proxy.

    from crawler.testweb import load_web, serve_in_thread
    web = load_web("demo")                      # or a folder such as ../shared/testweb/wikischools
    with serve_in_thread(web) as proxy:         # or: host, port, stop = serve_in_thread(web)
        ...                                     # point the crawler at proxy.proxy_url
"""
from .archive import DEMO_DIR, Record, WebArchive, host_of, load_web, read_labels, read_seeds, read_warc
from .server import ProxyServer, ServerHandle, ServerStats, normalize_url, serve, serve_in_thread

__all__ = [
    "DEMO_DIR", "ProxyServer", "Record", "ServerHandle", "ServerStats", "WebArchive", "host_of",
    "load_web", "normalize_url", "read_labels", "read_seeds", "read_warc", "serve",
    "serve_in_thread",
]
