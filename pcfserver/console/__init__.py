"""The web console: the everyday work of IBM MQ Console in a browser, served by the server itself (sans-IO).

``app.ConsoleApp`` answers ``/ibmmq/console/...``: it authenticates as the REST API does (same users, roles and
login tokens), checks the CSRF token of every change, serves the static assets, and hands the shell a
:class:`app.ConsoleRouted` whose page handler the shell runs inside one engine operation through the committer
shared by every port (so a page reads a consistent queue manager, and a change it makes is durable before the answer).
The pages (``pages/``) render Jinja2 templates from the attribute tables of ``formats/``; no page imports trio.
"""
