// Both drivers decode values the same way, so SQL results look identical on either.
// int8 (counts, sums) as JS numbers: every count we return is far below 2^53.
// date as the plain 'YYYY-MM-DD' string: a Date would shift it by the process's time zone.
export const INT8_OID = 20;
export const DATE_OID = 1082;
export const NUMERIC_OID = 1700;

export const parseInt8 = (value: string): number => Number(value);
export const parseDate = (value: string): string => value;
export const parseNumeric = (value: string): number => Number(value);
