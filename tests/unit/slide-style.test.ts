// The slide styles a presentation page may use: the allow-list passes what the Python client writes
// and drops anything that could load, run or add a declaration; addresses count only on this site.
import { describe, expect, it } from 'vitest';
import { foreignBackground, placement, safeColor, safeTextStyle, sameSitePath, slideBackground } from '@/lib/core/documents/slide-style';

const ORIGIN = 'http://127.0.0.1:3412';

describe('placement', () => {
  it('turns slide pixels into shares of the 1000 x 700 slide', () => {
    expect(placement({ left: 100, top: 70, width: '500px', height: 350, position: 'fixed' })).toEqual({
      position: 'absolute',
      left: '10%',
      top: '10%',
      width: '50%',
      height: '50%',
    });
    expect(placement({ left: '12.5%', top: 'calc(1px)', width: 'expression(alert(1))' })).toEqual({ position: 'absolute', left: '12.5%' });
    expect(placement(null)).toEqual({ position: 'absolute' });
  });
});

describe('safeColor', () => {
  it('passes colours, refuses anything else', () => {
    for (const c of ['#fff', '#3d3d3d', '#0D0A1E80', 'rgb(1, 2, 3)', 'rgba(1,2,3,0.5)', 'hsl(120 50% 50%)', 'white', 'transparent'])
      expect(safeColor(c)).toBe(c);
    for (const c of ['url(x)', 'red;background:url(x)', 'expression(1)', 'var(--x)', '#12', 'rgb(1,2,url(x))', 12, null]) expect(safeColor(c)).toBeNull();
  });
});

describe('safeTextStyle', () => {
  it("keeps the client's paragraph style, sizes scaled to the slide", () => {
    const body = {
      color: '#3d3d3d',
      fontFamily: 'Open Sans',
      fontSize: 26,
      fontStyle: 'normal',
      fontWeight: 400,
      lineHeight: 'normal',
      minWidth: 20,
      opacity: 1,
      textAlign: 'center',
      textDecoration: 'none',
      wordBreak: 'break-word',
    };
    expect(safeTextStyle(body)).toEqual({
      color: '#3d3d3d',
      fontFamily: 'Open Sans',
      fontSize: '2.6cqw',
      fontStyle: 'normal',
      fontWeight: '400',
      lineHeight: 'normal',
      opacity: '1',
      textAlign: 'center',
      textDecoration: 'none',
      wordBreak: 'break-word',
    });
  });

  it('drops properties off the list and values that could load or inject', () => {
    const hostile = {
      backgroundImage: 'url(http://evil.example/x.png)',
      behavior: 'url(x.htc)',
      color: 'red; background: url(http://evil.example/)',
      fontFamily: 'a;background:url(x)',
      fontSize: '10px; position: fixed',
      textAlign: 'center;',
      opacity: 3,
      zIndex: 1e9,
      position: 'fixed',
    };
    expect(safeTextStyle(hostile)).toEqual({});
    expect(safeTextStyle('color: red')).toEqual({});
  });
});

describe('sameSitePath', () => {
  it('keeps this site and relative addresses as paths', () => {
    expect(sameSitePath(`${ORIGIN}/avatars/ada.svg`, ORIGIN)).toBe('/avatars/ada.svg');
    expect(sameSitePath('/~ada/1.png?size=card', ORIGIN)).toBe('/~ada/1.png?size=card');
    expect(sameSitePath('img/a.png', ORIGIN)).toBe('/img/a.png');
  });
  it('refuses other sites and other schemes, however written', () => {
    for (const src of [
      'https://evil.example/a.png',
      '//evil.example/a.png',
      '/\\evil.example/a.png',
      'http://127.0.0.1:9999/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      ' ',
      42,
      `/${'a'.repeat(3000)}`,
    ])
      expect(sameSitePath(src, ORIGIN), String(src)).toBeNull();
  });
});

describe('slideBackground', () => {
  it('takes the colour and a same-site image, never another site', () => {
    expect(slideBackground({ style: { backgroundColor: '#F4FAFB' } }, ORIGIN)).toEqual({ backgroundColor: '#F4FAFB' });
    const own = {
      backgroundImageSrc: `${ORIGIN}/bg.png`,
      style: { backgroundImage: `url(${ORIGIN}/bg.png)`, backgroundSize: '100% 100%', backgroundRepeat: 'no-repeat', backgroundPosition: 'center center' },
    };
    expect(slideBackground(own, ORIGIN)).toEqual({
      backgroundImage: 'url("/bg.png")',
      backgroundSize: '100% 100%',
      backgroundRepeat: 'no-repeat',
      backgroundPosition: 'center center',
    });
    expect(foreignBackground(own, ORIGIN)).toBeNull();
    const elsewhere = { style: { backgroundImage: 'url("https://evil.example/bg.png")' } };
    expect(slideBackground(elsewhere, ORIGIN)).toEqual({});
    expect(foreignBackground(elsewhere, ORIGIN)).toBe('https://evil.example/bg.png');
  });
});
