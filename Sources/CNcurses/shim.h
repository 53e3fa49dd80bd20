#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// The C side of TerminalUI's ncurses backend: what Swift cannot call directly (macros,
// variadics, attribute and mouse constants), plus the async-signal-safe terminal restore.
// ncursesw on Linux, the system's ncurses (wide-character capable) on macOS; the library is
// linked by TerminalUI's target, per platform. Every symbol is prefixed `cncurses_`; only `NcursesBackend` and the
// terminal-restore code in TerminalUI use them.
#define NCURSES_WIDECHAR 1
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE 1  // pthread_main_np beside the X/Open declarations
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#if __has_include(<ncurses.h>)
#include <ncurses.h>
#else
#error "the ncurses headers are missing: `sudo apt-get install libncurses-dev` (Debian, Ubuntu) or `xcode-select --install` (macOS)"
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

// MARK: - Setup

/// Selects the environment's locale; falls back to C.UTF-8 when it is not UTF-8.
/// Returns 1 when the resulting character set is UTF-8.
static inline int cncurses_setup_locale(void) {
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    if (cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0)) return 1;
    if (setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "C.utf8") || setlocale(LC_CTYPE, "UTF-8")) {
        cs = nl_langinfo(CODESET);
        return cs && strcmp(cs, "UTF-8") == 0;
    }
    return 0;
}

static inline SCREEN *cncurses_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }
/// Whether the terminal can move its cursor to a place (terminfo's `cup`): what full screen needs.
static inline int cncurses_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}
/// Ends the screen `newterm` opened, for a terminal that will not be used after all.
static inline void cncurses_close_screen(SCREEN *screen) {
    endwin();
    delscreen(screen);
}
static inline int cncurses_set_escdelay(int ms) { return set_escdelay(ms); }
static inline int cncurses_lines(void) { return LINES; }
static inline int cncurses_cols(void) { return COLS; }
static inline int cncurses_keypad(int on) { return keypad(stdscr, on ? TRUE : FALSE); }
static inline int cncurses_nodelay(int on) { return nodelay(stdscr, on ? TRUE : FALSE); }
/// The next byte of input, or a `KEY_*` code above 0xFF, or ERR when there is none.
static inline int cncurses_getch(void) { return wgetch(stdscr); }
static inline int cncurses_ok(void) { return OK; }

/// 1 when the calling OS thread is the process's main thread.
static inline int cncurses_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#elif defined(__linux__)
    return (pid_t)syscall(SYS_gettid) == getpid();  // the main thread's id is the pid
#else
    return 1;  // no way to tell: the debug check passes
#endif
}

// MARK: - Attributes and colors

static inline attr_t cncurses_a_normal(void) { return A_NORMAL; }
static inline attr_t cncurses_a_bold(void) { return A_BOLD; }
static inline attr_t cncurses_a_dim(void) { return A_DIM; }
static inline attr_t cncurses_a_reverse(void) { return A_REVERSE; }
static inline attr_t cncurses_a_underline(void) { return A_UNDERLINE; }
static inline int cncurses_attr_set(attr_t attrs, short pair) { return attr_set(attrs, pair, NULL); }
/// The attribute bits that select color pair `pair` in a `chtype` (pairs 0...255 fit).
static inline attr_t cncurses_color_pair(short pair) { return COLOR_PAIR(pair); }
static inline int cncurses_colors(void) { return COLORS; }
static inline int cncurses_color_pairs(void) { return COLOR_PAIRS; }

// MARK: - Output

/// Writes `n` wide characters at (y, x) with the current attributes.
static inline int cncurses_mvaddnwstr(int y, int x, const wchar_t *s, int n) {
    return mvaddnwstr(y, x, s, n);
}
/// Writes `n` bytes of single-byte characters (printable ASCII) at (y, x) with the current attributes.
static inline int cncurses_mvaddnstr(int y, int x, const char *s, int n) { return mvaddnstr(y, x, s, n); }
/// Stores `n` single-column characters with their own attributes and color pairs at (y, x),
/// as they are: no wrapping, no control characters, the window's attributes are not applied,
/// the cursor stays at (y, x). Far cheaper than `mvaddnstr`, which renders one byte at a time.
static inline int cncurses_mvaddchnstr(int y, int x, const chtype *s, int n) { return mvaddchnstr(y, x, s, n); }
static inline int cncurses_move(int y, int x) { return move(y, x); }
static inline int cncurses_wnoutrefresh(void) { return wnoutrefresh(stdscr); }
static inline int cncurses_clearok(int on) { return clearok(curscr, on ? TRUE : FALSE); }

// MARK: - Mouse

/// Reports presses, releases and clicks of the left button, right presses and wheel steps.
static inline int cncurses_enable_mouse(void) {
    mmask_t wanted = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON3_PRESSED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
    wanted |= BUTTON5_PRESSED;
#endif
    mmask_t old = 0;
    return mousemask(wanted, &old) != 0;
}
/// Reads the pending mouse event. kind: 1 press, 2 release, 3 click, 4 wheel up, 5 wheel down,
/// 6 right press, 0 other. Returns OK or ERR.
static inline int cncurses_getmouse(int *x, int *y, int *kind) {
    MEVENT ev;
    if (getmouse(&ev) != OK) return ERR;
    *x = ev.x;
    *y = ev.y;
    mmask_t b = ev.bstate;
    *kind = 0;
    if (b & BUTTON4_PRESSED) *kind = 4;
#ifdef BUTTON5_PRESSED
    else if (b & BUTTON5_PRESSED) *kind = 5;
#endif
    else if (b & BUTTON1_PRESSED) *kind = 1;
    else if (b & BUTTON1_RELEASED) *kind = 2;
    else if (b & BUTTON1_CLICKED) *kind = 3;
    else if (b & BUTTON3_PRESSED) *kind = 6;
    return OK;
}

// MARK: - Terminal restore (async-signal-safe)
//
// The reset sequence and the saved termios are prepared once, before any handler is
// installed, in static storage; the handlers then only call write, tcsetattr, sigaction and
// raise, which are async-signal-safe.

struct cncurses_restore_state {
    char sequence[256];
    volatile sig_atomic_t length;
    struct termios termios;
    volatile sig_atomic_t has_termios;
    volatile sig_atomic_t tty_fd;
    volatile sig_atomic_t pipe_write;
    /// The actions the crash handler replaced (indexed by signal number), to chain to them.
    struct sigaction previous[32];
};

/// The one copy of the restore state (a function-local static, so the header can be
/// imported without a C source file).
static inline struct cncurses_restore_state *cncurses_state(void) {
    static struct cncurses_restore_state state = {.length = 0, .has_termios = 0, .tty_fd = -1, .pipe_write = -1};
    return &state;
}
/// Saves the terminal's current attributes and the bytes that undo full-screen mode.
static inline void cncurses_prepare_restore(int fd, const char *sequence) {
    size_t n = strlen(sequence);
    if (n >= 255) n = 255;
    struct cncurses_restore_state *st = cncurses_state();
    memcpy(st->sequence, sequence, n);
    st->sequence[n] = 0;
    st->length = (sig_atomic_t)n;
    if (tcgetattr(fd, &st->termios) == 0) st->has_termios = 1;
    st->tty_fd = fd;
}

/// Writes the reset sequence and restores the saved termios. Async-signal-safe.
static inline void cncurses_restore_terminal(void) {
    struct cncurses_restore_state *st = cncurses_state();
    int fd = st->tty_fd;
    if (fd < 0) return;
    size_t left = (size_t)st->length;
    const char *p = st->sequence;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (st->has_termios) tcsetattr(fd, TCSANOW, &st->termios);
}

/// Forgets the prepared restore (after a normal endwin).
static inline void cncurses_disarm_restore(void) { cncurses_state()->tty_fd = -1; }

/// Restores the terminal, then calls the handler it replaced (the Swift runtime's backtracer,
/// if any) so the crash is still reported, then ends the process by `signo` with the default
/// action (a core dump). A chained handler that returns cannot keep the process alive: a
/// fault the kernel raised (si_code > 0) recurs when this handler returns, and a signal sent
/// by a process (kill, abort) is raised again. Async-signal-safe as far as the chained handler is.
static void cncurses_crash_handler(int signo, siginfo_t *info, void *context) {
    int saved = errno;
    cncurses_restore_terminal();
    struct sigaction previous = cncurses_state()->previous[signo & 31];
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
    if (previous.sa_flags & SA_SIGINFO) {
        if ((void *)previous.sa_sigaction != (void *)SIG_DFL && (void *)previous.sa_sigaction != (void *)SIG_IGN)
            previous.sa_sigaction(signo, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signo);
    }
    // The chained handler may have installed its own action again; the default ends the process.
    sigaction(signo, &dfl, NULL);
    errno = saved;
    if (info == NULL || info->si_code <= 0) raise(signo);
}

/// Installs the crash handler for SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE and
/// SIGQUIT (on an alternate stack, so a stack overflow can still restore the terminal),
/// remembering the actions it replaces to chain to them. SIGQUIT asks for a core dump and the
/// runtime's backtrace: it gets them, on a terminal restored first.
static inline void cncurses_install_crash_handlers(void) {
    static char altstack[256 * 1024];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cncurses_crash_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    int signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGQUIT};
    struct cncurses_restore_state *st = cncurses_state();
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction previous;
        if (sigaction(signals[i], &sa, &previous) != 0) continue;
        // Installing twice must not chain to ourselves.
        if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction == cncurses_crash_handler) continue;
        st->previous[signals[i]] = previous;
    }
}

static void cncurses_pipe_handler(int signo) {
    int saved = errno;
    int fd = cncurses_state()->pipe_write;
    if (fd >= 0) {
        unsigned char b = (unsigned char)signo;
        ssize_t r = write(fd, &b, 1);
        (void)r;
    }
    errno = saved;
}

/// Creates the self-pipe that turns signals into readable bytes. Returns the read end or -1.
static inline int cncurses_signal_pipe_open(void) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
    cncurses_state()->pipe_write = fds[1];
    return fds[0];
}

/// Routes `signo` to the self-pipe.
static inline int cncurses_signal_pipe_watch(int signo) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cncurses_pipe_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(signo, &sa, NULL);
}

/// Restores the default disposition of `signo`.
static inline void cncurses_signal_default(int signo) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(signo, &sa, NULL);
}

/// Ends the process by `signo`: default disposition, unblocked in this thread, raised.
/// (Dispatch's threads block signals, so a plain raise would stay pending.)
static inline void cncurses_reraise(int signo) {
    cncurses_signal_default(signo);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(signo);
}

/// Whether SIGTSTP is ignored: a program started so (by a shell without job control) is not to
/// stop itself on Ctrl-Z.
static inline int cncurses_stop_signal_ignored(void) {
    struct sigaction sa;
    if (sigaction(SIGTSTP, NULL, &sa) != 0) return 0;
    return !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN;
}

/// Stops the process as a terminal's Ctrl-Z would: SIGTSTP at its default action to the process
/// group, from this thread with the signal unblocked, so the kernel stops every thread before
/// `kill` returns. Returns once the process is continued (SIGCONT, the shell's `fg`), with
/// SIGTSTP routed to the self-pipe again. (A process group with no parent in its session — an
/// orphan — is not stopped: the kernel drops the signal, and this returns at once.)
static inline void cncurses_stop_job(void) {
    cncurses_signal_default(SIGTSTP);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    kill(0, SIGTSTP);
    cncurses_signal_pipe_watch(SIGTSTP);
}

/// Reads the window size of `fd`; returns 0 on success.
static inline int cncurses_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

#endif
