/*
 * The word rule as byte tables (see token.h), built from the code point
 * predicates so that the two cannot disagree.
 */
#include <pthread.h>

#include "token.h"

static unsigned char cls_alnum[256], cls_nonspace[256];
static unsigned char cls_alnum_fold[256], cls_nonspace_fold[256];
static unsigned char fold_ascii[256], keep_ascii[256];
static uint16_t two[2][2][TOKEN_TWO];	/* [keeppunct][keepcase] */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
tables_init(void)
{
	unsigned c;
	int p, k;

	for (c = 0; c < 256; c++) {
		if (c >= 0x80) {
			cls_alnum[c] = cls_nonspace[c] = TOKEN_HIGH;
		} else {
			cls_alnum[c] = token_isword(c, 0) ? TOKEN_WORD :
			    TOKEN_SEP;
			cls_nonspace[c] = token_isword(c, 1) ? TOKEN_WORD :
			    TOKEN_SEP;
		}
		cls_alnum_fold[c] = cls_alnum[c];
		cls_nonspace_fold[c] = cls_nonspace[c];
		if (c < 0x80 && token_fold(c, 0) != c)
			cls_alnum_fold[c] = cls_nonspace_fold[c] = TOKEN_UPPER;
		keep_ascii[c] = (unsigned char)c;
		fold_ascii[c] = (unsigned char)(c < 0x80 ? token_fold(c, 0) :
		    c);
	}
	for (c = 0; c < TOKEN_TWO; c++)
		for (p = 0; p < 2; p++)
			for (k = 0; k < 2; k++)
				two[p][k][c] = (uint16_t)(token_isword(c, p) ?
				    token_fold(c, k) : 0);
}

const unsigned char *
token_classes(int keeppunct, int keepcase)
{
	pthread_once(&once, tables_init);
	if (keepcase)
		return keeppunct ? cls_nonspace : cls_alnum;
	return keeppunct ? cls_nonspace_fold : cls_alnum_fold;
}

const uint16_t *
token_two(int keeppunct, int keepcase)
{
	pthread_once(&once, tables_init);
	return two[keeppunct != 0][keepcase != 0];
}

const unsigned char *
token_ascii(int keepcase)
{
	pthread_once(&once, tables_init);
	return keepcase ? keep_ascii : fold_ascii;
}
