// CSV fields from stored JSON texts, walked item by item.
import { describe, expect, it } from 'vitest';
import { csvField, jsonItems } from '@/lib/web/csv';

describe('jsonItems', () => {
  it.each([
    ['[]', []],
    ['[1,2.5,-3e+21,true,null]', ['1', '2.5', '-3e+21', 'true', 'null']],
    ['[ "a,b" , "q\\"]" ,{"k":[1,{"x":"]"}]},[1,[2]] ]', ['"a,b"', '"q\\"]"', '{"k":[1,{"x":"]"}]}', '[1,[2]]']],
    ['7', ['7']],
    ['"lone"', ['"lone"']],
  ])('%s', (text, items) => {
    expect([...jsonItems(text)]).toEqual(items);
    // Each item is the JSON text of the value JSON.parse would give.
    if (text.startsWith('[')) expect(items.map((i) => JSON.parse(i))).toEqual(JSON.parse(text));
  });
});

describe('csvField', () => {
  it.each([
    ['1', '1'],
    ['null', ''],
    [undefined, ''],
    ['"plain"', 'plain'],
    ['"a,b"', '"a,b"'],
    ['"say \\"hi\\""', '"say ""hi"""'],
    ['"=1+1"', "'=1+1"],
    ['"-2+3"', "'-2+3"],
    ['-2', '-2'],
    ['"\\tx"', "'\tx"],
    ['"\\rx"', `"'\rx"`],
    ['{"a":1,"b":2}', '"{""a"":1,""b"":2}"'],
  ])('%s -> %s', (json, field) => expect(csvField(json)).toBe(field));
});
