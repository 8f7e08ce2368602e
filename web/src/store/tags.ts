import { create } from 'zustand';
import { persist, createJSONStorage } from 'zustand/middleware';
import { prefixedStorage } from '../util/storage';
import { addTag, delAllTags, delOtherTags, delTag, homeTag, setFirstTag, type Tag } from './tagRules';

interface TagsState {
  tagList: Tag[];
  tag: Tag;
  /** Bumped per tab value by "clear cache" / refresh so kept-alive pages remount. */
  epoch: Record<string, number>;
  add: (tag: Tag) => void;
  remove: (tag: Tag) => void;
  closeOthers: () => void;
  closeAll: () => void;
  reset: () => void;
  refresh: (value?: string) => void;
}

export const useTagsStore = create<TagsState>()(
  persist(
    (set, get) => ({
      tagList: setFirstTag([homeTag()]),
      tag: homeTag(),
      epoch: {},
      add: (tag) => set((s) => ({ tag, tagList: addTag(s.tagList, tag) })),
      remove: (tag) => set((s) => ({ tagList: delTag(s.tagList, tag) })),
      closeOthers: () => set((s) => ({ tagList: delOtherTags(s.tagList, s.tag) })),
      closeAll: () => set({ tagList: delAllTags(), tag: homeTag() }),
      reset: () => set({ tagList: delAllTags(), tag: homeTag(), epoch: {} }),
      refresh: (value) => {
        const epoch = { ...get().epoch };
        const keys = value ? [value] : get().tagList.map((t) => t.value);
        keys.forEach((k) => {
          epoch[k] = (epoch[k] ?? 0) + 1;
        });
        set({ epoch });
      },
    }),
    {
      name: 'tags',
      storage: createJSONStorage(() => prefixedStorage()),
      partialize: (s) => ({ tagList: s.tagList, tag: s.tag }),
    },
  ),
);
