// A hostile bot that leaves a daemon behind: it double-forks (a new
// session, its parent gone, so nothing but the sandbox can find it), the
// daemon runs on as `hostile_daemon loop MARKER.daemon FD` (for the test to
// look for) and says so through FD once it runs as that; then the bot
// exits (`exit MARKER`) or stays (`stay MARKER`).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string mode = argc > 2 ? argv[1] : "";
  if (mode == "loop" && argc > 3) {
    const int ready = std::atoi(argv[3]);
    (void)!write(ready, "r", 1);
    close(ready);
    while (true) pause();
  }
  if (mode != "exit" && mode != "stay") {
    std::fprintf(stderr, "usage: %s exit|stay MARKER\n", argv[0]);
    return 2;
  }
  int ready[2];
  if (pipe(ready) != 0) return 1;
  const pid_t child = fork();
  if (child == 0) {
    setsid();
    if (fork() == 0) {
      close(ready[0]);
      // Become the daemon, which tells the bot.
      const std::string name = std::string(argv[2]) + ".daemon";
      const std::string fd = std::to_string(ready[1]);
      execl("/proc/self/exe", argv[0], "loop", name.c_str(), fd.c_str(), nullptr);
      _exit(1);
    }
    _exit(0);  // the daemon's parent goes: it is adopted
  }
  close(ready[1]);
  waitpid(child, nullptr, 0);
  char c;
  if (read(ready[0], &c, 1) != 1) return 1;
  std::printf("daemon started\n");
  if (mode == "stay") {
    while (true) pause();
  }
  return 0;
}
