import { create } from 'zustand';
import type { ReviewReason } from '../../../../../shared/ipc/channels/review.ts';
import { toast } from '../../../components/toastStore.ts';
import { desk } from '../../../desk/desk.ts';

/**
 * The QA review's small shared state: the flag reasons (live and removed) and the reviewer's name.
 * Marks themselves are read per call (`review:get`); filters go through the calls filter.
 */
interface ReviewState {
  reasons: ReviewReason[];
  reviewer: string | null;
  load(): Promise<void>;
  /** Each resolves with an error message, or null when done (the editor shows it beside the field). */
  addReason(label: string): Promise<string | null>;
  renameReason(id: number, label: string): Promise<string | null>;
  removeReason(id: number): Promise<string | null>;
  setReviewer(name: string): Promise<string | null>;
}

export const useReview = create<ReviewState>((set) => {
  const apply = (r: Awaited<ReturnType<ReturnType<typeof desk>['review']['reasons']>>): string | null => {
    if (!r.ok) return r.error.message;
    set({ reasons: r.value.reasons });
    return null;
  };
  return {
    reasons: [],
    reviewer: null,
    async load() {
      const [reasons, reviewer] = await Promise.all([desk().review.reasons({}), desk().review.reviewer({})]);
      const problem = apply(reasons);
      if (problem) toast.error(problem);
      if (reviewer.ok) set({ reviewer: reviewer.value.name });
    },
    addReason: async (label) => apply(await desk().review.addReason({ label })),
    renameReason: async (id, label) => apply(await desk().review.renameReason({ id, label })),
    removeReason: async (id) => apply(await desk().review.removeReason({ id })),
    async setReviewer(name) {
      const r = await desk().review.setReviewer({ name });
      if (!r.ok) return r.error.message;
      set({ reviewer: r.value.name });
      return null;
    },
  };
});

/** The reasons a reviewer can choose (not removed). */
export const liveReasons = (reasons: readonly ReviewReason[]) => reasons.filter((r) => !r.removed);
