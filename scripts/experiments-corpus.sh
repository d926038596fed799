#!/usr/bin/env bash
# Install the real-HTML corpus `winnow experiments` reads by default: the HTML documentation
# of Debian's python3.11-doc package (about 500 pages, 70 MB installed, in
# /usr/share/doc/python3.11/html).  Needs root and apt (Debian or Ubuntu).  Without it, give
# the experiments any folder of HTML pages with --corpus.
set -euo pipefail

if [ -d /usr/share/doc/python3.11/html ]; then
    echo "/usr/share/doc/python3.11/html is already installed"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "experiments-corpus.sh: run as root (apt-get install python3.11-doc)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends python3.11-doc >/dev/null
echo "installed /usr/share/doc/python3.11/html"
