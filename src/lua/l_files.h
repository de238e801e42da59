/* l_files.h: the files of a tournament's --out directory (regular files
 * only, never through a link, one writer at a time) and text made valid
 * UTF-8 (l_files.c), part of the host library. */
#ifndef MB_L_FILES_H
#define MB_L_FILES_H

#include "l_util.h"

/* Put open_file, write_file, lock_file and utf8_fix in the table on top:
 * the host library. */
void lmb_open_files(lua_State *L);

#endif
