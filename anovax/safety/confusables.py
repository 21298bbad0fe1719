"""A compact confusable table: letters from other scripts that look like Latin letters.

Why a table and not a dependency: the attacks in scope swap a few Cyrillic, Greek,
Armenian, Cherokee or small-capital letters into a command word (``ѕudo``, ``fοrmαt``).
Those are a few hundred code points, distilled here from Unicode TR39 ``confusables.txt``
(only the single-letter Latin targets). NFKC already folds fullwidth, mathematical,
circled and superscript forms, so they are not repeated here.

The map is applied to *whole tokens only* when every character of the token is either
ASCII or in this table (see canon.py): all-Cyrillic prose such as ``Привет`` keeps its
letters, because ``П``/``и`` have no Latin look-alike, so it can never turn into a command.
"""

from __future__ import annotations

# "source target" pairs; upper and lower case both listed because mapping runs before casefold
_PAIRS = """
А A а a В B в b Е E е e Ё E ё e К K к k М M м m Н H н h О O о o Р P р p С C с c Т T т t
У Y у y Х X х x Ѕ S ѕ s І I і i Ї I ї i Ј J ј j Ԁ d ԁ d Ӏ l ӏ l Һ H һ h Ԛ Q ԛ q Ԝ W ԝ w
Ү Y ү y Ұ Y ұ y З 3 Ь b ь b г r Ғ F ҡ k Ҝ K ҝ k п n Ꙅ S ꙅ s Ԍ G ԍ g Ԏ T ԏ t Ӡ 3 ӡ 3
Ѵ V ѵ v Ѡ W ѡ w Ԃ d Ԋ H Ӈ H Ҫ C ҫ c Ҙ 3 Ӓ A ӓ a Ӧ O ӧ o Ӱ Y ӱ y Ӭ 3 Ҽ e ҽ e Ҿ e ҿ e
Α A α a Β B β b Ε E ε e Ζ Z Η H η n Ι I ι i Κ K κ k Μ M μ u Ν N ν v Ο O ο o Ρ P ρ p
Τ T τ t Υ Y υ u Χ X χ x γ y ω w Ϲ C ϲ c Ϳ J ϳ j ϐ b ϵ e ϱ p ϰ k ϒ Y Ϝ F ϝ f ς c σ o
Ά A ά a Έ E έ e Ή H ή n Ί I ί i Ό O ό o Ύ Y ύ u Ώ W ώ w ϊ i ϋ u
Օ O օ o Ս U ս u Տ S Ց G ց g հ h ո n զ q ա w ւ l Լ L Ջ 2 ձ 2 ք p
Ꭺ A Ᏼ B Ꮯ C Ꭰ D Ꭼ E Ꮐ G Ꮋ H Ꮖ I Ꭻ J Ꮶ K Ꮮ L Ꮇ M Ꮑ N Ꮎ O Ꮲ P Ꭱ R Ꮪ S Ꭲ T Ꮩ V Ꮃ W Ꮓ Z
ꭺ a ꮟ b ꮯ c ꭰ d ꭼ e ꮐ g ꮋ h ꮖ i ꭻ j ꮶ k ꮮ l ꮇ m ꮑ n ꮎ o ꮲ p ꭱ r ꮪ s ꭲ t ꮩ v ꮃ w ꮓ z
ᴀ a ʙ b ᴄ c ᴅ d ᴇ e ғ f ɢ g ʜ h ɪ i ᴊ j ᴋ k ʟ l ᴍ m ɴ n ᴏ o ᴘ p ǫ q ʀ r ꜱ s ᴛ t ᴜ u ᴠ v
ᴡ w ʏ y ᴢ z ı i ȷ j ɑ a ɡ g ɩ i ɒ a ƅ b ɗ d ɛ e ɦ h ɭ l ɱ m ɳ n ɵ o ʂ s ʋ u ʐ z
ꓮ A ꓐ B ꓚ C ꓓ D ꓰ E ꓝ F ꓖ G ꓧ H ꓲ I ꓙ J ꓗ K ꓡ L ꓟ M ꓠ N ꓳ O ꓑ P ꓣ R ꓢ S ꓔ T ꓴ U ꓦ V ꓪ W ꓫ X ꓬ Y ꓜ Z
"""


def _table() -> dict[int, str]:
    words = _PAIRS.split()
    if len(words) % 2:
        raise ValueError("confusable table has an odd number of entries")
    table = {ord(src): dst for src, dst in zip(words[::2], words[1::2])}
    # Regional indicator symbols spell letters (flag emoji); map them too.
    for offset in range(26):
        table[0x1F1E6 + offset] = chr(ord("a") + offset)
    return table


#: code point -> ASCII look-alike, for str.translate
CONFUSABLES: dict[int, str] = _table()

#: scripts whose letters are routinely used to disguise Latin words
DISGUISE_SCRIPTS = frozenset({"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "LISU", "COPTIC"})
