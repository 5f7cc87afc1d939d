import { describe, expect, it } from 'vitest';
import { isEmbedPath, pageSecurityHeaders } from '@/lib/web/security-headers';

describe('page security headers', () => {
  it('deny framing except for the embed page', () => {
    const page = pageSecurityHeaders({ nonce: 'abc', frameable: false, https: false });
    expect(page['X-Frame-Options']).toBe('DENY');
    expect(page['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(page['Content-Security-Policy']).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    const embed = pageSecurityHeaders({ nonce: 'abc', frameable: true, https: false });
    expect(embed['X-Frame-Options']).toBeUndefined();
    expect(embed['Content-Security-Policy']).toMatch(/; frame-ancestors \*(;|$)/);
  });

  it('pin https only when the service is public over https', () => {
    const http = pageSecurityHeaders({ nonce: 'abc', frameable: false, https: false });
    expect(http['Strict-Transport-Security']).toBeUndefined();
    expect(http['Content-Security-Policy']).not.toContain('upgrade-insecure-requests');
    const https = pageSecurityHeaders({ nonce: 'abc', frameable: false, https: true });
    expect(https['Strict-Transport-Security']).toBe('max-age=31536000');
    expect(https['Content-Security-Policy']).toContain('upgrade-insecure-requests');
  });

  it('know the embed page in its public and internal forms', () => {
    expect(isEmbedPath('/~alice/3.embed')).toBe(true);
    expect(isEmbedPath('/files/alice/3/embed')).toBe(true);
    expect(isEmbedPath('/~alice/3/embed')).toBe(true);
    expect(isEmbedPath('/~alice/3/')).toBe(false);
    expect(isEmbedPath('/~alice/3.embed/x')).toBe(false);
    expect(isEmbedPath('/files/alice/3')).toBe(false);
    expect(isEmbedPath('/~alice/')).toBe(false);
  });
});
