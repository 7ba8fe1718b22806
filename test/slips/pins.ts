/**
 * Per-book figures on the 20 real screenshots (hand-labelled truth in fixtures/slips/truth).
 * They may only improve: `correct` is a floor, `flagged` and `missed` are ceilings, and an
 * unflagged wrong field is never allowed.
 */
export const PINS = {
  draftkings: { images: 6, correct: 23, flagged: 16, missed: 0 },
  fanduel: { images: 8, correct: 93, flagged: 21, missed: 0 },
  hardrock: { images: 6, correct: 69, flagged: 8, missed: 0 },
} as const;

export const IMAGES = [
  'dk_app_bet_placed_prop_light.png',
  'dk_app_bet_placed_rr_anytime_td_light.png',
  'dk_app_mybets_open_spread_dark.png',
  'dk_web_mybets_open_alt_total_dark.jpg',
  'dk_web_mybets_open_moneyline_dark.jpg',
  'dk_web_mybets_open_spread_dark_1.jpg',
  'fd_app_mybets_sgp_boost_dark_1.jpg',
  'fd_app_mybets_sgp_boost_dark_2.jpg',
  'fd_app_mybets_sgp_boost_dark_3.jpg',
  'fd_app_mybets_sgp_boost_dark_4.jpg',
  'fd_app_sgp_alt_yards_dark.png',
  'fd_app_sgp_anytime_td_alt_dark.png',
  'fd_app_sgp_props_over_dark.png',
  'fd_web_mybets_sgp_boost_light.jpg',
  'hr_app_mybets_prop_settled_green.png',
  'hr_app_parlay_moneyline_light.png',
  'hr_app_sgp_props_light.png',
  'hr_share_sgp_props_dark.png',
  'hr_share_sgpmax_props_light.png',
  'hr_share_winner_green.png',
] as const;

export const bookOf = (image: string): keyof typeof PINS =>
  image.startsWith('dk_') ? 'draftkings' : image.startsWith('fd_') ? 'fanduel' : 'hardrock';
