// English function words, compared before stemming. They carry no topic, and dropping them keeps
// bigrams such as "of the" out of the index. Topic-neutral but frequent scholarly words ("paper",
// "propose", "result") are left to the document-frequency cut-off at query time instead: what is
// common depends on the corpus.
const WORDS = `
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can cannot could couldn't did didn't do does doesn't doing don't down
during each either et etc few for from further had hadn't has hasn't have haven't having he her here
hers herself him himself his how however i if in into is isn't it it's its itself just let's may me
might more most must mustn't my myself neither no nor not of off on once only or other ought our ours
ourselves out over own per same shall she should shouldn't so some such than that that's the their
theirs them themselves then there there's these they this those through thus to too under until up
upon us very via was wasn't we were weren't what when where whether which while who whom whose why
will with within without would wouldn't yet you your yours yourself yourselves
`;

/** Stop words as the tokenizer spells them: apostrophes removed ("don't" becomes "dont"). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  WORDS.split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => w.replace(/'/g, '')),
);
