/** A third-party sign-in without a valid user id must register first (spec §2). */
export const needsRegistration = (userId?: string, oauthId?: string): boolean =>
  Boolean(oauthId) && (!userId || userId === '-1' || userId === '0');
