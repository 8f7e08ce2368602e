/** Age in whole seconds between two epoch-millisecond instants (BladeX calcDate().seconds). */
export const ageSeconds = (from: number, to: number): number => Math.round((to - from) / 1000);
