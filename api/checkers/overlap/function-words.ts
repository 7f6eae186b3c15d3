/**
 * English function words (articles, pronouns, prepositions, conjunctions, auxiliaries and the commonest
 * adverbs): closed-class words any page has. They are worth nothing to a search for one passage, and
 * their share of a text tells running English prose (where they are a third or more of the words) from
 * tables, forms, lists and code.
 */
export const FUNCTION_WORDS = new Set(
  ('a about above after again against all also am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each either few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just may me might more most must my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same shall she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up upon us very was we were what when where whether which while who whom whose why will with ' +
    'within without would you your yours yourself yourselves one two three many much every however therefore thus s t').split(' '),
);
