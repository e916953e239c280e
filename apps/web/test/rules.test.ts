import { describe, expect, it } from 'vitest';
import { chooseSetupDialog, dialogsAllowedOn, networkFromChoice } from '../src/features/setup/rules';

describe('setup dialog choice (spec 4)', () => {
  it('initial without network prompt gives the initialisation dialog', () => {
    expect(chooseSetupDialog(true, false)).toBe('init');
  });
  it('network prompt without initial gives only the network dialog', () => {
    expect(chooseSetupDialog(false, true)).toBe('network');
  });
  it('both give the wizard', () => {
    expect(chooseSetupDialog(true, true)).toBe('wizard');
  });
  it('neither gives no dialog', () => {
    expect(chooseSetupDialog(false, false)).toBe('none');
  });
  it('never shows on /login or /', () => {
    expect(dialogsAllowedOn('/login')).toBe(false);
    expect(dialogsAllowedOn('/')).toBe(false);
    expect(dialogsAllowedOn('/initial')).toBe(false);
    expect(dialogsAllowedOn('/video/square/0')).toBe(true);
  });
});

describe('network choice (spec 5)', () => {
  const local = ['192.168.1.10', '10.0.0.5'];
  it('a local intranet address leaves rtc_host empty', () => {
    expect(networkFromChoice('192.168.1.10', local)).toEqual({
      sip_host: '192.168.1.10',
      rtc_host: '',
      terminal_host: '192.168.1.10',
      ehome_host: '192.168.1.10',
    });
  });
  it('any other address is used for rtc, terminal and ehome', () => {
    expect(networkFromChoice('203.0.113.7', local)).toEqual({
      sip_host: '203.0.113.7',
      rtc_host: '203.0.113.7',
      terminal_host: '203.0.113.7',
      ehome_host: '203.0.113.7',
    });
  });
  it('trims a typed address before comparing', () => {
    expect(networkFromChoice(' 10.0.0.5 ', local).rtc_host).toBe('');
  });
});
