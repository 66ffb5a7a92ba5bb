"""How the acceptance scripts start ccl4j: the ./ccl4j launcher, a command line, or the CLI's jar."""
import glob
import os
import shlex
import subprocess
import sys


def java():
    """A JDK of version 23 or newer: $JAVA_HOME, else the newest under /usr/lib/jvm."""
    candidates = [os.environ["JAVA_HOME"]] if os.environ.get("JAVA_HOME") else []
    candidates += sorted(glob.glob("/usr/lib/jvm/*"), reverse=True)
    for home in candidates:
        exe = os.path.join(home, "bin", "java")
        if not os.access(exe, os.X_OK):
            continue
        out = subprocess.run([exe, "-XshowSettings:properties", "-version"], capture_output=True, text=True).stderr
        for line in out.splitlines():
            if "java.specification.version" in line and int(line.split("=")[1].strip().split(".")[0]) >= 23:
                return exe
    sys.exit("%s: no JDK 23 or newer found (set JAVA_HOME)" % os.path.basename(sys.argv[0]))


def command(ccl4j):
    """The command line that runs ccl4j: a jar with a JDK found by java(), else the words given."""
    if ccl4j.endswith(".jar"):
        return [java(), "--enable-native-access=ALL-UNNAMED", "-jar", ccl4j]
    return shlex.split(ccl4j)
