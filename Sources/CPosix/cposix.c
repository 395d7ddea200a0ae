#define _GNU_SOURCE
#include "cposix.h"
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int tb_open_pty(char *name, size_t length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, length) != 0) {
        close(master);
        return -1;
    }
    return master;
}

int tb_spawn_in_group(char *const argv[]) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        closefrom(3);  /* another test's pipe stays with that test */
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    return pid;
}

void tb_stop_group(int pid, int grace_ms) {
    kill(-pid, SIGTERM);
    for (int waited = 0; waited < grace_ms; waited += 50) {
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            kill(-pid, SIGKILL);  /* the rest of the group (gpsd) */
            return;
        }
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

int tb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int tb_malloc_trim(void) { return malloc_trim(0); }

int tb_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
