#ifndef ROSTER_CNCURSESW_SHIM_H
#define ROSTER_CNCURSESW_SHIM_H

// The wide-character API is only declared with these two set.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <locale.h>
#include <wchar.h>
#include <termios.h>
#include <unistd.h>

// stdscr and the A_* macros do not import cleanly into Swift 6.
static inline WINDOW *roster_stdscr(void) { return stdscr; }
static inline attr_t roster_attr_reverse(void) { return A_REVERSE; }
static inline attr_t roster_attr_bold(void) { return A_BOLD; }
static inline attr_t roster_attr_dim(void) { return A_DIM; }
static inline attr_t roster_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t roster_attr_normal(void) { return A_NORMAL; }
static inline int roster_key_code_yes(void) { return KEY_CODE_YES; }
static inline FILE *roster_stdout(void) { return stdout; }

/* In raw mode Ctrl-C is a key, read only when the main thread is free to
   read keys. This turns it back into SIGINT (Ctrl-Z and Ctrl-\ stay keys),
   so it ends Roster even while the main thread waits on a database. */
static inline int roster_interrupt_key_signals(int descriptor) {
    struct termios modes;
    if (tcgetattr(descriptor, &modes) != 0) return -1;
    modes.c_lflag |= ISIG;
    modes.c_cc[VQUIT] = _POSIX_VDISABLE;
    modes.c_cc[VSUSP] = _POSIX_VDISABLE;
    return tcsetattr(descriptor, TCSANOW, &modes);
}

/* `text` must hold a NUL after its `count` characters: waddnwstr reads the
   character after the last one it adds before it checks the count (found by
   AddressSanitizer: a run ending on a page boundary faulted). */
static inline int roster_put_wide(int y, int x, const wchar_t *text, int count, attr_t attributes) {
    if (wmove(stdscr, y, x) == ERR) return ERR;
    attr_t old_attributes; short old_pair;
    wattr_get(stdscr, &old_attributes, &old_pair, NULL);
    /* wattr_set takes the colour pair apart from the other attributes. */
    wattr_set(stdscr, attributes & ~A_COLOR, (short)PAIR_NUMBER(attributes), NULL);
    int result = waddnwstr(stdscr, text, count);
    wattr_set(stdscr, old_attributes, old_pair, NULL);
    return result;
}


/* Mouse, opt-in: clicks, double clicks and the wheel (buttons 4 and 5). */
static inline int roster_enable_mouse(void) {
    mouseinterval(300);
    return mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL) != 0;
}

/* 1 click, 2 double click, 3 wheel up, 4 wheel down, 0 anything else. */
static inline int roster_read_mouse(int *row, int *column) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *row = event.y;
    *column = event.x;
    if (event.bstate & BUTTON1_DOUBLE_CLICKED) return 2;
    if (event.bstate & BUTTON1_CLICKED) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 3;
    if (event.bstate & BUTTON5_PRESSED) return 4;
    return 0;
}

/* Colours: pairs on the terminal's own background (-1). */
static inline int roster_start_colors(void) {
    if (!has_colors()) return 0;
    start_color();
    use_default_colors();
    init_pair(1, COLOR_GREEN, -1);    /* balances */
    init_pair(2, COLOR_MAGENTA, -1);  /* search matches */
    init_pair(3, COLOR_CYAN, -1);     /* company headers */
    init_pair(4, COLOR_YELLOW, -1);   /* marked people */
    return 1;
}
static inline attr_t roster_color_pair(short pair) { return COLOR_PAIR(pair); }
/* Whether the terminal can address the cursor (TERM=dumb cannot). */
static inline int roster_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

#endif
