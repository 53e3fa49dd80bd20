// The few ncurses calls the frame benchmarks make, as plain functions Swift can call.
// (The lab's own shim, Sources/CNcurses, is not a product of the root package.)
#ifndef CBENCHCURSES_SHIM_H
#define CBENCHCURSES_SHIM_H
#include <ncurses.h>
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

/// Ends the current screen.
static inline void CBenchCurses_close(SCREEN *screen) {
    endwin();
    delscreen(screen);
}
#endif
