import { describe, expect, it } from 'vitest';
import { MESSAGES, REASONS, SUBJECTS, isReasonKey, message, pickLang, reason, subject } from '../src/index.js';

describe('message catalogue', () => {
  it('has every message in both languages', () => {
    for (const [key, m] of Object.entries(MESSAGES)) {
      expect(m['zh-CN'], key).toBeTruthy();
      expect(m['en-US'], key).toBeTruthy();
    }
  });
  it('keeps the spec texts exactly', () => {
    expect(message('newPasswordRequired')).toBe('新密码不能为空!');
    expect(message('oldPasswordRequired')).toBe('原始密码不能为空!');
    expect(message('confirmPasswordRequired')).toBe('确认新密码不能为空!');
    expect(message('adminUsernameRequired')).toBe('请输入管理员登录名');
    expect(message('sipPasswordRequired')).toBe('SIP密码不能为空!');
    expect(message('ehomePasswordRequired')).toBe('EHOME密码不能为空!');
    expect(message('networkRequired')).toBe('请选择网络!');
    expect(message('serviceNameRequired')).toBe('服务名称不能为空!');
    expect(message('invalidFormat')).toBe('输入格式不合法！');
    expect(message('fillRequired')).toBe('请填入必选项!');
    expect(message('passwordChanged')).toBe('修改成功');
    expect(message('saved')).toBe('修改成功!');
    expect(message('success')).toBe('操作成功');
    expect(message('channelOffline')).toBe('通道已离线!');
    expect(message('channelDisabled')).toBe('通道未开启!');
    expect(message('favouriteRemoved')).toBe('已移除收藏夹!');
    expect(message('ipSet')).toBe('IP设置成功!');
    expect(message('analysisListFailed')).toBe('获取智能分析平台列表异常');
  });
  it('fills placeholders and picks the language from Accept-Language', () => {
    expect(message('loginLocked', 'en-US', { minutes: 15 })).toBe('Too many failed logins, try again in 15 minutes');
    expect(pickLang(undefined)).toBe('zh-CN');
    expect(pickLang('en-GB,en;q=0.8')).toBe('en-US');
    expect(pickLang('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(pickLang('fr')).toBe('zh-CN');
  });
  it('names every subject in both languages with the same placeholders, and no English in the Chinese', () => {
    const holes = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, m] of Object.entries(SUBJECTS)) {
      expect(holes(m['zh-CN']), key).toEqual(holes(m['en-US']));
      // Latin words in the Chinese text would be untranslated English (WebRTC is a name).
      expect(m['zh-CN'].replace(/\{\w+\}|WebRTC/g, ''), key).not.toMatch(/[A-Za-z]{2,}/);
    }
    expect(message('notFound', 'zh-CN', { what: subject('channel', 'zh-CN', { id: '1:1' }) })).toBe('通道 1:1不存在');
    expect(message('notFound', 'en-US', { what: subject('recordingsRange', 'en-US', { id: '1:1', from: 'a', to: 'b' }) })).toBe(
      'A recording of 1:1 from a to b does not exist',
    );
  });
  it('reads every English message as a sentence: a capital first, also where it begins with the subject (session 26)', () => {
    // "channel 43/1 does not exist" reached users: notFound and duplicate begin with {what}.
    for (const [key, m] of Object.entries(MESSAGES)) {
      const first = m['en-US'].startsWith('{what}') ? null : m['en-US'].charAt(0);
      if (first !== null) expect(first, key).toMatch(/[A-Z‘'"]/);
    }
    for (const [key, m] of Object.entries(SUBJECTS)) expect(m['en-US'].charAt(0), key).toMatch(/[A-Z]/);
    expect(message('notFound', 'en-US', { what: subject('channel', 'en-US', { id: '43/1' }) })).toBe('Channel 43/1 does not exist');
    expect(message('notFound', 'zh-CN', { what: subject('channel', 'zh-CN', { id: '43/1' }) })).toBe('通道 43/1不存在');
  });
  it('drops the space beside a placeholder where a Chinese word meets a Chinese value; English keeps its spaces', () => {
    const plan = (lang: 'zh-CN' | 'en-US', id: string) => message('duplicate', lang, { what: subject('recordPlan', lang, { id }) });
    // Before: 录像计划 夜间 Night 154已存在.
    expect(plan('zh-CN', '夜间 Night 154')).toBe('录像计划夜间 Night 154已存在');
    expect(plan('en-US', '夜间 Night 154')).toBe('Recording plan 夜间 Night 154 already exists');
    // A value in Latin letters or digits keeps the space; a value's own spaces stay.
    expect(plan('zh-CN', 'Night 154')).toBe('录像计划 Night 154已存在');
    expect(plan('zh-CN', '夜间 值班')).toBe('录像计划夜间 值班已存在');
    expect(message('notFound', 'zh-CN', { what: subject('label', 'zh-CN', { id: '3, 4' }) })).toBe('标签 3, 4不存在');
    // Text after a value: 通道 {id} 自 {from} 起的录像.
    expect(subject('recordingsFrom', 'zh-CN', { id: '前门', from: '2026-11-29 08:00' })).toBe('通道前门自 2026-11-29 08:00 起的录像');
    expect(subject('recordingsFrom', 'zh-CN', { id: '1:1', from: '今天' })).toBe('通道 1:1 自今天起的录像');
    expect(subject('recordingsFrom', 'en-US', { id: '前门', from: '今天' })).toBe('A recording of 前门 from 今天');
    // A placeholder without a value is left as it is, with its spaces.
    expect(subject('recordPlan', 'zh-CN')).toBe('录像计划 {id}');
  });
  it('says every reason in both languages with the same placeholders, the Chinese in Chinese', () => {
    const holes = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, r] of Object.entries(REASONS)) {
      expect(r['zh-CN'], key).toBeTruthy();
      expect(r['en-US'], key).toBeTruthy();
      expect(holes(r['zh-CN']), key).toEqual(holes(r['en-US']));
      // Parameter names and formats stay the API's, but the words around them are Chinese.
      expect(r['zh-CN'], key).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(isReasonKey('notDate')).toBe(true);
    expect(isReasonKey('toString')).toBe(false);
    expect(message('invalidParam', 'zh-CN', { field: 'period', reason: reason('notDate') })).toBe('参数 period 不合法: 不是YYYYMMDD格式的日期');
    expect(reason('afterStartWithinDays', 'en-US', { start: 'stime', days: 7 })).toBe('after stime, at most 7 days later');
  });
});
