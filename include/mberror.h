/* mberror.h: the engine's status codes. Every engine function that can fail
 * returns one of these (MB_OK is 0); the caller decides how to report it.
 * mb_strerror() gives a short English description for logs and CLI errors. */
#ifndef MB_MBERROR_H
#define MB_MBERROR_H

typedef enum MbError {
    MB_OK = 0,
    MB_EINVAL,    /* an argument is outside its documented domain */
    MB_ENOMEM,    /* an allocation failed */
    MB_ESIZE,     /* board size or k outside the supported range */
    MB_ESYNTAX,   /* text that does not parse (coordinates, numbers, lists) */
    MB_ENOTINT,   /* a coordinate that is not an integer */
    MB_ERANGE,    /* a square outside the board */
    MB_EOCCUPIED, /* a square that already holds a mark */
    MB_EEMPTY,    /* a square that holds no mark (remove_mark) */
    MB_EOVER,     /* a move after the game has ended */
    MB_EALGO,     /* a win-check algorithm that does not apply to this board */
    MB_EIO,       /* reading or writing a file failed (errno says why) */
    MB_EINTR      /* an interrupt (Ctrl-C, interrupt.h) stopped the call */
} MbError;

/* Short English description of a status code ("square out of range"). */
const char *mb_strerror(int err);

#endif
