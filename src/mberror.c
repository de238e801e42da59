/* mberror.c: descriptions of the engine's status codes (see mberror.h). */
#include "mberror.h"

const char *mb_strerror(int err)
{
    switch ((MbError)err) {
    case MB_OK: return "ok";
    case MB_EINVAL: return "invalid argument";
    case MB_ENOMEM: return "out of memory";
    case MB_ESIZE: return "unsupported board size or k";
    case MB_ESYNTAX: return "syntax error";
    case MB_ENOTINT: return "coordinates are not integers";
    case MB_ERANGE: return "square out of range";
    case MB_EOCCUPIED: return "square already occupied";
    case MB_EEMPTY: return "square has no mark";
    case MB_EOVER: return "the game is over";
    case MB_EALGO: return "win-check algorithm does not apply to this board";
    case MB_EIO: return "input/output error";
    case MB_EINTR: return "interrupted";
    }
    return "unknown error";
}
