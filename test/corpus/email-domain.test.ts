// The institution an email address is written from, for the shared-affiliation conflict.
import { describe, expect, it } from 'vitest';
import { institutionalDomain } from '../../src/corpus/authors/email-domain.ts';

describe('institutionalDomain', () => {
  it("is the institution's domain, departments and public suffixes aside", () => {
    expect(institutionalDomain('jane@cs.stanford.edu')).toBe('stanford.edu');
    expect(institutionalDomain('x@eng.ox.ac.uk')).toBe('ox.ac.uk');
    expect(institutionalDomain('d@mails.tsinghua.edu.cn')).toBe('tsinghua.edu.cn');
    expect(institutionalDomain('k@u-tokyo.ac.jp')).toBe('u-tokyo.ac.jp');
    expect(institutionalDomain('H@IN.TUM.DE')).toBe('tum.de');
  });

  it('is none for free mail, alumni addresses, public suffixes, reserved names and non-addresses', () => {
    for (const email of [
      'a@gmail.com',
      'b@yahoo.co.uk',
      'c@163.com',
      'd@qq.com',
      'e@mail.ru',
      'f@alum.mit.edu',
      'g@co.uk',
      'h@example.org',
      'i@lab.example',
      'j@localhost',
      'no address',
      '',
      null,
    ]) {
      expect(institutionalDomain(email)).toBeNull();
    }
  });
});
