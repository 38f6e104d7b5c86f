-- PLACEHOLDER so this branch migrates 1..n without gaps: 0013 and 0014 belong to other
-- branches of issue 39/40; the lead drops this file at the merge (their file replaces it).
SELECT 1;
