import { describe, expect, it } from 'vitest';
import { addTag, closeTag, delAllTags, delOtherTags, homeTag, setFirstTag, type Tag } from './tagRules';
import { useTagsStore } from './tags';

const tag = (value: string): Tag => ({ label: value, value });
const home = homeTag();

describe('tab rules', () => {
  it('de-duplicates when adding', () => {
    let list = setFirstTag([home]);
    list = addTag(list, tag('/a'));
    list = addTag(list, tag('/a'));
    expect(list.map((t) => t.value)).toEqual(['/wel/index', '/a']);
  });

  it('never lets the only tab close', () => {
    expect(setFirstTag([tag('/a')])[0].close).toBe(false);
    expect(setFirstTag([home])[0].close).toBe(false);
  });

  it('keeps the home tab unclosable while home is not set as first page', () => {
    const list = addTag(addTag(setFirstTag([home]), tag('/a')), tag('/b'));
    expect(list.find((t) => t.value === '/wel/index')?.close).toBe(false);
    expect(list.find((t) => t.value === '/a')?.close).toBe(true);
    expect(setFirstTag(list, true).find((t) => t.value === '/wel/index')?.close).toBe(true);
  });

  it('opens the previous tab when the active one closes', () => {
    const list = [home, tag('/a'), tag('/b'), tag('/c')].reduce<Tag[]>((l, t) => addTag(l, t), []);
    const r = closeTag(list, list[2], list[2]);
    expect(r.list.map((t) => t.value)).toEqual(['/wel/index', '/a', '/c']);
    expect(r.open?.value).toBe('/a');
    const r2 = closeTag(list, list[3], list[1]);
    expect(r2.open).toBeUndefined();
    const r3 = closeTag(list, list[0], list[0]);
    expect(r3.list).toHaveLength(4);
  });

  it('close others keeps the active tab and the home tab', () => {
    const list = [home, tag('/a'), tag('/b')].reduce<Tag[]>((l, t) => addTag(l, t), []);
    expect(delOtherTags(list, list[2]).map((t) => t.value)).toEqual(['/wel/index', '/b']);
  });

  it('close all resets to the home tab', () => {
    const list = delAllTags();
    expect(list).toHaveLength(1);
    expect(list[0].value).toBe('/wel/index');
    expect(list[0].close).toBe(false);
  });

  it('the store persists tabs under the prefixed key', () => {
    useTagsStore.getState().add(tag('/x'));
    expect(useTagsStore.getState().tag.value).toBe('/x');
    expect(localStorage.getItem('saber-tags')).toContain('/x');
    useTagsStore.getState().closeAll();
    expect(useTagsStore.getState().tagList.map((t) => t.value)).toEqual(['/wel/index']);
  });
});
