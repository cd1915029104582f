"""``python -m mtlearn.figures`` is the old name of ``python -m mtlearn.show.figures``; it runs that command.

The pictures moved to :mod:`mtlearn.show.figures` with the rest of the presentation
code; this name is kept so that notes and issues written before still work.
"""

if __name__ == "__main__":  # pragma: no cover - the command
    from mtlearn.show.figures import main

    raise SystemExit(main())
