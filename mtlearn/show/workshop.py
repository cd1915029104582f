"""The workshop app's server: Voilà with a token, idle kernels culled, and a cap on kernels.

Every visit of the workshop page starts a kernel of its own (about 150 MB). On a
shared machine that must not be open to anyone who finds the port, nor grow
without bound, so ``make workshop`` runs ``python -m mtlearn.show.workshop``, which
starts Voilà with these settings:

* a token: Voilà generates one (or takes ``$JUPYTER_TOKEN``) and prints the URL
  with it, as JupyterLab does; a request without it is sent to a login page, and no
  kernel starts;
* listening on 127.0.0.1 only, notebook sources stripped;
* mtlearn's page template (``mtlearn/show/voila/templates/mtlearn``): Voilà's lab
  template without its links to Font Awesome on a CDN, so an offline room's page
  asks no other host for anything;
* a kernel idle for ``cull_idle_timeout`` seconds and no longer shown in any page
  is shut down (checked every ``cull_interval`` seconds); a student's open page
  keeps its kernel, and closing the page shuts it down (Voilà does that);
* at most ``max_kernels`` kernels at once (:class:`CappedKernelManager`): one
  more visit gets "503 Service Unavailable" and a sentence saying why.

>>> argv = voila_argv("notebooks/workshop.ipynb", port=8866, max_kernels=3)
>>> [a for a in argv if "max_kernels" in a or "token" in a or "ip=" in a]
['--token', '--Voila.ip=127.0.0.1', '--CappedKernelManager.max_kernels=3']
>>> [a for a in argv if a.startswith("--template")]
['--template=mtlearn']
>>> (TEMPLATE_ROOT / "voila" / "templates" / TEMPLATE / "conf.json").is_file()
True
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

__all__ = ["CappedKernelManager", "voila_argv", "main"]

#: The page's template (mtlearn/show/voila/templates/mtlearn): Voilà's lab template without links to a CDN.
TEMPLATE = "mtlearn"
TEMPLATE_ROOT = Path(__file__).parent  # holds voila/templates/<TEMPLATE>, as a Jupyter data folder does

#: Defaults: a room of students; ten idle minutes; look once a minute.
MAX_KERNELS = 20
CULL_IDLE_TIMEOUT_S = 600
CULL_INTERVAL_S = 60


class CappedKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager that refuses to start more than ``max_kernels`` kernels.

    ``start_kernel`` counts the kernels running and those still starting (Voilà
    starts one per page request, possibly several at once) and answers HTTP 503
    beyond the cap.

    >>> CappedKernelManager.max_kernels.default_value == MAX_KERNELS
    True
    """

    max_kernels = Integer(MAX_KERNELS, config=True,
                          help="At most this many kernels at once; a request for one more gets HTTP 503.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._starting = 0  # kernels asked for and not yet listed (asyncio: one thread, no lock needed)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Start a kernel as Jupyter does, unless ``max_kernels`` are running or starting (then HTTP 503)."""
        if kwargs.get("kernel_id") is None and len(self.list_kernel_ids()) + self._starting >= self.max_kernels:
            self.log.warning("refusing a kernel: %d running, the cap is %d", len(self.list_kernel_ids()),
                             self.max_kernels)
            raise web.HTTPError(503, reason=f"All {self.max_kernels} places are taken; try again in a few minutes")
        self._starting += 1
        try:
            return await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1


def voila_argv(notebook: str, *, port: int = 8866, max_kernels: int = MAX_KERNELS,
               cull_idle_timeout: int = CULL_IDLE_TIMEOUT_S, cull_interval: int = CULL_INTERVAL_S) -> list[str]:
    """Voilà's command-line options (after ``voila``) for serving ``notebook`` as the workshop app.

    >>> voila_argv("app.ipynb", port=9000)[:3]
    ['app.ipynb', '--token', '--Voila.ip=127.0.0.1']
    """
    for name, value in (("port", port), ("max_kernels", max_kernels), ("cull_idle_timeout", cull_idle_timeout),
                        ("cull_interval", cull_interval)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}: expected a whole number of at least 1, got {value!r}")
    return [
        notebook,
        "--token",  # Voilà generates a token (or takes $JUPYTER_TOKEN) and prints the URL with it
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--strip_sources=True",
        f"--template={TEMPLATE}",
        f"--VoilaConfiguration.multi_kernel_manager_class={__name__}.CappedKernelManager",
        f"--CappedKernelManager.max_kernels={max_kernels}",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={cull_interval}",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mtlearn.show.workshop NOTEBOOK``: serve the workshop app (extra options go to Voilà)."""
    parser = argparse.ArgumentParser(
        prog="python -m mtlearn.show.workshop",
        description="Serve a notebook as the workshop app: Voilà on 127.0.0.1 with a token, "
                    "idle kernels culled, at most --max-kernels kernels.",
    )
    parser.add_argument("notebook", help="the notebook to serve (notebooks/workshop.ipynb)")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--max-kernels", type=int, default=MAX_KERNELS,
                        help=f"kernels at most, one per open page (default {MAX_KERNELS})")
    parser.add_argument("--cull-idle-timeout", type=int, default=CULL_IDLE_TIMEOUT_S,
                        help="seconds before an idle kernel no page shows is shut down "
                             f"(default {CULL_IDLE_TIMEOUT_S})")
    args, extra = parser.parse_known_args(argv)
    try:
        options = voila_argv(args.notebook, port=args.port, max_kernels=args.max_kernels,
                             cull_idle_timeout=args.cull_idle_timeout,
                             cull_interval=min(CULL_INTERVAL_S, args.cull_idle_timeout))
    except ValueError as error:
        parser.error(str(error))
    # Voilà finds templates on the Jupyter path: mtlearn's own (no CDN links) lives beside this module.
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATE_ROOT), os.environ.get("JUPYTER_PATH")]))
    from voila.app import main as voila_main

    voila_main(argv=[*options, *extra])
    return 0


if __name__ == "__main__":
    sys.exit(main())
