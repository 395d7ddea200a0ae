// POSIX and glibc calls that Swift's Glibc module does not show (the test helpers' and the server's).
#ifndef TRAILBOOK_CPOSIX_H
#define TRAILBOOK_CPOSIX_H

#include <spawn.h>
#include <stddef.h>

/// Opens a pseudo-terminal master, unlocks it and writes the slave's path into `name`.
/// Returns the master's file descriptor, or -1 with errno set.
int tb_open_pty(char *name, size_t length);

/// Starts `argv[0]` (searched in PATH) in a new process group, its output sent to /dev/null.
/// Returns the child's pid (also its process group id), or -1 with errno set.
int tb_spawn_in_group(char *const argv[]);

/// Makes a spawn close every descriptor from `lowest` up in the child, so that a server a test
/// starts does not keep another test's pipe open (glibc's posix_spawn_file_actions_addclosefrom_np).
int tb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Makes a pipe whose two ends are closed on exec from the start (glibc's pipe2 with
/// O_CLOEXEC): made any later, a process another thread starts meanwhile would keep an end open.
/// Returns 0, or -1 with errno set.
int tb_pipe_cloexec(int fds[2]);

/// Sends SIGTERM to the process group `pid`, then SIGKILL after `grace_ms`, and reaps `pid`.
void tb_stop_group(int pid, int grace_ms);

/// Gives the pages malloc holds free back to the system, in every arena (glibc's malloc_trim):
/// after a burst of work spread over many threads, each thread's arena keeps what it freed.
/// Returns 1 when memory was released.
int tb_malloc_trim(void);

#endif
