from winnow.cli.main import main

__all__ = ["main"]
