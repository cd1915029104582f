"""What runs mtlearn outside a notebook: the command line (``cli/``), the workshop app's server (``workshop``)
and the course editions of the notebooks (``editions``, ``edition_folder``)."""
