import sys
from pathlib import Path

# The fixtures the Rust tests use live in the repository; the package itself is installed.
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(Path(__file__).parent))
