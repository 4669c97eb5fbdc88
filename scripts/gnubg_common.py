"""What the gnubg scripts share: running a script inside gnubg, and setting up self-play.

The scripts run themselves inside gnubg's embedded Python (``gnubg -t -q -p``);
gnubg keeps its own argv, so arguments travel in environment variables, and
CRAWFORD_SCRIPTS tells the script inside gnubg where to import this module from.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

GNUBG = "/usr/games/gnubg"
SCRIPTS = os.path.dirname(os.path.abspath(__file__))


def run_in_gnubg(
    script: str, env_vars: dict[str, str], gnubg: str = GNUBG
) -> subprocess.CompletedProcess:
    """Run ``scripts/<script>`` inside gnubg with a throwaway HOME (gnubg writes settings there)."""
    env = dict(os.environ, CRAWFORD_SCRIPTS=SCRIPTS, **env_vars)
    with tempfile.TemporaryDirectory() as home:
        env["HOME"] = home
        return subprocess.run(
            [gnubg, "-t", "-q", "-p", os.path.join(SCRIPTS, script)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=3600,
            check=False,
        )


def self_play(gnubg, seed: int, noise: float) -> None:
    """Both sides played by gnubg at 0-ply with noise, so positions and cube actions vary."""
    gnubg.command(f"set seed {seed}")
    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        for part in ("chequerplay", "cubedecision"):
            gnubg.command(f"set player {player} {part} evaluation plies 0")
            gnubg.command(f"set player {player} {part} evaluation noise {noise}")
            gnubg.command(f"set player {player} {part} evaluation deterministic off")
