/**
 * Validation answers in the request's language: zod's own texts in Chinese by default (its zhCN
 * locale), English when asked; a schema's catalogue reason (schemaReason) in either; any other text
 * the schema wrote (YYYYMMDD) as written.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaReason, zodReason } from '../../src/http/zod-reason.js';
import { useAdminApp } from './admin-app.js';

/** The entries fastify-type-provider-zod makes of a failed parse. */
const entries = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error!.issues.map(({ code, message, path: _path, ...params }) => ({ keyword: code, message, params }));

describe('zodReason', () => {
  const schema = z.object({ a: z.string(), n: z.coerce.number().int().max(5), e: z.enum(['x', 'y']), d: z.string().regex(/^\d{8}$/, 'YYYYMMDD') });
  const [a, n, e, d] = entries(schema, { a: 5, n: '9', e: 'q', d: 'x' });
  it("renders zod's own texts in Chinese, with the type it received", () => {
    expect(zodReason(a, 'zh-CN')).toBe('无效输入：期望 string，实际接收 数字');
    expect(zodReason(n, 'zh-CN')).toMatch(/^数值过大/);
    expect(zodReason(e, 'zh-CN')).toMatch(/^无效选项/);
  });
  it('keeps English for English, and a text the schema wrote', () => {
    expect(zodReason(a, 'en-US')).toBe('Invalid input: expected string, received number');
    expect(zodReason(d, 'zh-CN')).toBe('YYYYMMDD');
  });
  it("renders a schema's catalogue reason in the answer's language, with its vars", () => {
    const own = z.object({
      p: z.string().regex(/^\d{6}$/, schemaReason('format', { format: 'YYYYMM' })),
      s: z.number().refine((n) => n === 1, schemaReason('oneOf', { values: '0.5, 1, 2 & 4?' })),
      r: z.string().refine(() => false, { message: schemaReason('required') }),
    });
    const [p, s, r] = entries(own, { p: 'x', s: 3, r: '' });
    expect(zodReason(p, 'zh-CN')).toBe('格式须为YYYYMM');
    expect(zodReason(p, 'en-US')).toBe('must be YYYYMM');
    expect(zodReason(s, 'zh-CN')).toBe('须为 0.5, 1, 2 & 4? 之一');
    expect(zodReason(s, 'en-US')).toBe('one of 0.5, 1, 2 & 4?');
    expect(zodReason(r, 'zh-CN')).toBe('不能为空');
  });
});

describe('a refused request', () => {
  const api = useAdminApp();
  it('names the field and the reason in Chinese, or in English when asked', async () => {
    const zh = await api.get('/api/v1/record/querymonthly?id=1:1');
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toMatch(/^参数 period 不合法: 无效输入/);
    const en = await api.get('/api/v1/record/querymonthly?id=1:1&lang=en-US');
    expect(en.json().msg).toMatch(/^Invalid parameter period: Invalid input/);
  });
});
