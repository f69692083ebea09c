"""A cardref_referee that refuses most CreateMatch calls (caps of 2 waiting
and 2 in progress), for the load tests: with CappedReferee(binary) as r,
r.port serves; on leaving, the referee is sent SIGTERM and r.exit_code and
r.log_tail say how it ended. Its operations log (a line per match) goes to
a file: printed whole it buried the tests' own messages in CI's output."""
import os
import signal
import subprocess
import tempfile
import time


class CappedReferee:
    def __init__(self, binary):
        self.binary = binary
        self.port = ""
        self.exit_code = None
        self.log_tail = ""

    def __enter__(self):
        self._tmp = tempfile.TemporaryDirectory()
        tmp = self._tmp.name
        port_file = os.path.join(tmp, "port")
        self._log = open(os.path.join(tmp, "referee.log"), "w+")
        self._process = subprocess.Popen(
            [self.binary, "--port=0", f"--port_file={port_file}",
             f"--log_dir={tmp}/logs", "--max_matches_in_progress=2",
             "--max_waiting_matches=2",
             # The matches a load run leaves are not waited for at the end.
             "--shutdown_grace_ms=1000"], stdout=subprocess.DEVNULL,
            stderr=self._log)
        # Up to 30 s: a sanitizer build starts slowly on a busy machine.
        for _ in range(300):
            if os.path.exists(port_file):
                self.port = open(port_file).read().strip()
                if self.port:
                    return self
            if self._process.poll() is not None:
                break
            time.sleep(0.1)
        self.__exit__(None, None, None)
        raise RuntimeError(f"the capped referee did not start:\n"
                           f"{self.log_tail}")

    def pause(self):
        """Stops the referee (SIGSTOP): it answers nothing until resume."""
        self._process.send_signal(signal.SIGSTOP)

    def resume(self):
        self._process.send_signal(signal.SIGCONT)

    def __exit__(self, *exc):
        self._process.send_signal(signal.SIGCONT)
        self._process.terminate()
        self.exit_code = self._process.wait(timeout=120)
        self._log.seek(0)
        self.log_tail = "".join(self._log.readlines()[-5:])
        self._log.close()
        self._tmp.cleanup()
        return False
