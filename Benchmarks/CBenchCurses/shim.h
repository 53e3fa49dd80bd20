// The few ncurses calls the frame benchmarks make, as plain functions Swift can call.
// (The lab's own shim, Sources/CNcurses, is not a product of the root package.)
#ifndef CBENCHCURSES_SHIM_H
#define CBENCHCURSES_SHIM_H
// Wide-character ncurses, as TerminalUI's own shim declares it (the two shims must agree).
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#if __has_include(<ncurses.h>)
#include <ncurses.h>
#else
#error "the ncurses headers are missing: install them with `sudo apt-get install libncurses-dev`"
#endif
#include <stdio.h>

/// Opens an ncurses screen of `rows`×`cols` that writes to /dev/null and reads nothing.
/// Returns NULL when the terminal type is unknown.
static inline SCREEN *CBenchCurses_open(const char *term, int rows, int cols) {
    FILE *out = fopen("/dev/null", "w");
    FILE *in = fopen("/dev/null", "r");
    if (out == NULL || in == NULL) return NULL;
    SCREEN *screen = newterm(term, out, in);
    if (screen == NULL) return NULL;
    set_term(screen);
    resizeterm(rows, cols);
    return screen;
}

/// Writes `count` bytes of `text` at row `y`, column 0, of the current screen.
static inline void CBenchCurses_put(int y, const char *text, int count) {
    mvwaddnstr(stdscr, y, 0, text, count);
}

/// Sends what changed since the last refresh to the terminal (here /dev/null).
static inline void CBenchCurses_refresh(void) { wrefresh(stdscr); }

// What TerminalUI's NcursesBackend calls per frame (its CNcurses shim is not a product of the root
// package, and its init needs a terminal on stdin/stdout): the same ncurses functions, so a
// backend in the Frames suite draws exactly as it does.

/// Sets the attributes and color pair of what is written next (NcursesBackend's `attr_set`).
static inline int CBenchCurses_attr_set(attr_t attrs, short pair) { return attr_set(attrs, pair, NULL); }

/// Writes `n` wide characters at (y, x) with the current attributes (NcursesBackend's write).
static inline int CBenchCurses_mvaddnwstr(int y, int x, const wchar_t *s, int n) {
    return mvaddnwstr(y, x, s, n);
}

/// Writes `n` bytes of printable ASCII at (y, x) with the current attributes (NcursesBackend's
/// narrow write).
static inline int CBenchCurses_mvaddnstr(int y, int x, const char *s, int n) { return mvaddnstr(y, x, s, n); }

/// NcursesBackend's flush: `wnoutrefresh(stdscr)`, then `doupdate()`.
static inline void CBenchCurses_flush(void) {
    wnoutrefresh(stdscr);
    doupdate();
}

static inline attr_t CBenchCurses_a_normal(void) { return A_NORMAL; }

/// Ends the current screen.
static inline void CBenchCurses_close(SCREEN *screen) {
    endwin();
    delscreen(screen);
}
#endif
