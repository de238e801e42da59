/* l_vcf.h: threat search from Lua (l_vcf.c). */
#ifndef MB_L_VCF_H
#define MB_L_VCF_H

#include "l_util.h"

/* Put mb.vcf and mb.vct in the table on top (threat search, vcf.h). */
void lmb_open_vcf(lua_State *L);

#endif
