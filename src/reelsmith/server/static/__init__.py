"""Delivery of the web client: its files fingerprinted, bundled and compressed, or plain.

**Optimised delivery** (``web_delivery = "optimised"``, the default) builds the client once,
from the installed package's ``web/`` folder, when the application is created:

- the ES modules the entry page loads (``js/main.js`` and everything it imports, statically)
  are joined into one script by `bundle_modules`; the stylesheets the page links are joined
  into one, in their order; every other file is kept as it is;
- every file gets its content's hash in its name (``js/main.3fa9c01b2e.js``) and every
  reference to a file is rewritten to that name: the page's ``src`` and ``href``, the CSS
  ``url()``, the ``/web/...`` strings of the scripts. A file's name changes when its content
  or the content of a file it names changes, so browsers may keep it for good (``Cache-Control:
  public, max-age=31536000, immutable``) and a new release is never mixed with the old;
- the entry page (``/``), which carries the fingerprinted names, is revalidated on every load
  (``no-cache`` with an ``ETag``);
- every text file is compressed with gzip once, at build time, and served compressed to a
  browser that accepts it (``Vary: Accept-Encoding``).

The page also carries a data block (``<script type="application/json" id="reelsmith-files">``,
which is never executed, so the Content-Security-Policy is untouched) with the fingerprinted
name of each file the scripts compute at run time (the message catalogues: ``js/files.js``
reads it) and the files and sizes of the first load (the loading screen's progress bar).

**Plain delivery** (``web_delivery = "plain"``, for working on the client) serves the files
as they are in the folder, each revalidated before use, and the page with the same data block
(every name its own). The plain files are served in optimised delivery too, revalidated, for
any address that names them directly.

The jobs live in modules of their own: `bundler` (the ES modules joined into one script),
`assets` (one file's fingerprint, compression and cache headers), `build` (the client built
for a delivery, with the page's data block) and `delivery` (the running server's client and
the ``/web`` app).
"""

from __future__ import annotations

from reelsmith.server.static.assets import (
    COMPRESS_ABOVE,
    COMPRESSIBLE,
    HASH_LENGTH,
    IMMUTABLE,
    MEDIA_TYPES,
    REVALIDATE,
    Asset,
    fingerprinted,
    media_type,
)
from reelsmith.server.static.build import (
    DELIVERIES,
    ENTRY_PAGE,
    FILES_BLOCK,
    PREFIX,
    ClientBuild,
    build_client,
)
from reelsmith.server.static.bundler import BuildError, Module, bundle_modules, module_graph
from reelsmith.server.static.delivery import (
    ClientDelivery,
    ClientFiles,
    RevalidatedStaticFiles,
    client_build,
)

__all__ = [
    "COMPRESSIBLE",
    "COMPRESS_ABOVE",
    "DELIVERIES",
    "ENTRY_PAGE",
    "FILES_BLOCK",
    "HASH_LENGTH",
    "IMMUTABLE",
    "MEDIA_TYPES",
    "PREFIX",
    "REVALIDATE",
    "Asset",
    "BuildError",
    "ClientBuild",
    "ClientDelivery",
    "ClientFiles",
    "Module",
    "RevalidatedStaticFiles",
    "build_client",
    "bundle_modules",
    "client_build",
    "fingerprinted",
    "media_type",
    "module_graph",
]
