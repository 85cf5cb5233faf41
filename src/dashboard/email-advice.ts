// What to write instead of an item that is no email address, said alike by a group record's form and
// by the group import (each says how it takes several addresses: one a line, or a semicolon apart).
import { addressesWithin } from '../infra/email-address.ts';
import { isolateText } from './html.ts';

/** The advice for an item that holds no address: each address whole, `apart` as the place takes them. */
export function wholeAddressAdvice(apart: string): string {
  return `write each address whole, ${apart}, such as name@university.edu`;
}

/**
 * What to write for `item`, which is no email address but holds some ("Ada <ada@uni.example>", two on
 * one line, as a mail program copies them): the address it holds, written alone, or the addresses it
 * holds, `apart` ("one a line", "separated by a semicolon"). Null when it holds none ("n/a", a name):
 * then `wholeAddressAdvice` is what to say.
 */
export function heldAddressAdvice(item: string, apart: string): string | null {
  const found = addressesWithin(item).map(isolateText);
  if (found.length === 0) return null;
  return found.length === 1 ? `write ${found[0]} alone` : `write ${found.join(' and ')} ${apart}`;
}
