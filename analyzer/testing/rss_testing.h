// Test and benchmark support: runs a program as a child process and
// measures its peak resident memory (wait4's ru_maxrss), so the analyzer's
// memory is measured on the real binary, not on a test process that holds
// other data.
#ifndef CARDREF_ANALYZER_TESTING_RSS_TESTING_H_
#define CARDREF_ANALYZER_TESTING_RSS_TESTING_H_

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cardref::analyzer::rss_testing {

struct ChildRun {
  int exit_code = -1;       // -1: did not run or did not exit normally
  int64_t max_rss_kib = 0;  // peak resident set size
  double seconds = 0;       // wall time
};

// Runs argv[0] with `argv`, its output to /dev/null.
inline ChildRun RunAndMeasure(const std::vector<std::string>& argv) {
  ChildRun run;
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  const pid_t pid = fork();
  if (pid < 0) return run;
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (wait4(pid, &status, 0, &usage) != pid) return run;
  clock_gettime(CLOCK_MONOTONIC, &end);
  run.seconds = static_cast<double>(end.tv_sec - start.tv_sec) +
                static_cast<double>(end.tv_nsec - start.tv_nsec) / 1e9;
  run.max_rss_kib = usage.ru_maxrss;
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  return run;
}

}  // namespace cardref::analyzer::rss_testing

#endif  // CARDREF_ANALYZER_TESTING_RSS_TESTING_H_
