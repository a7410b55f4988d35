/*
 * Decimal numbers, as options and weight tables write them.
 */
#ifndef DECIMAL_H
#define DECIMAL_H

/*
 * Is s wholly a decimal number (digits, a point, an exponent, signs) that
 * a double holds?  Then 0 with it in *v; else -1.  strtod(3) alone would
 * also take leading blanks, hexadecimal, "inf" and "nan".
 */
int	decimal_parse(const char *s, double *v);

#endif
