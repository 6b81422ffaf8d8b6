"""The office's web view of the store (``rulesub serve``): pages for reviewers, viewers and
casinos' compliance staff, and a JSON API for a casino's own tools.

``create_app(db)`` builds the ASGI application; ``validator.cli.serve`` runs it with uvicorn.
"""

from validator.web.app import create_app

__all__ = ["create_app"]
