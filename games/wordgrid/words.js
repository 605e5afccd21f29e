// Word Grid's own word lists (written for this game).
// ANSWERS: common five-letter words; the hidden word is drawn from these with Math.random.
// EXTRA: more words accepted as guesses. A guess is valid when it is in ANSWERS or EXTRA.
window.WORDGRID_WORDS = {
  answers: (
    "about above abuse actor acute admit adopt adult after again agent agree ahead alarm album alert " +
    "alike alive allow alone along alter among anger angle angry apart apple apply arena argue arise " +
    "array aside asset audio audit avoid award aware badly baker basic beach began begin being below " +
    "bench birth black blade blame blank blind block blood board boost booth bound brain brand bread " +
    "break breed brief bring broad broke brown build built buyer cabin cable candy carry catch cause " +
    "chain chair chalk charm chart chase cheap check chess chest chief child chose civil claim class " +
    "clean clear climb clock close cloud coach coast could count court cover craft crane crash cream " +
    "crime cross crowd crown curve cycle daily dance dealt death debut delay depth dirty doubt dozen " +
    "draft drama drank drawn dream dress drink drive drove eager early earth eight elite empty enemy " +
    "enjoy enter entry equal error event every exact exist extra faith false fault fence fiber field " +
    "fifth fifty fight final first flame flash fleet flesh float floor flour fluid focus force forth " +
    "forty forum found frame frank fraud fresh front frost fruit fully funny giant given glass globe " +
    "glory grace grade grain grand grant grape grass grave great green greet gross group grown guard " +
    "guess guest guide happy harsh heart heavy hence honey horse hotel house human humor ideal image " +
    "imply index inner input issue joint judge juice knife known label large laser later laugh layer " +
    "learn lease least leave legal lemon level light limit local logic loose lover lower loyal lucky " +
    "lunch magic major maker march match maybe mayor medal media metal meter might minor mixed model " +
    "money month moral motor mount mouse mouth movie music nerve never newly night noise north noted " +
    "novel nurse ocean offer often olive onion order organ other ought outer owner paint panel paper " +
    "party pasta patch peace pearl phase phone photo piano piece pilot pitch place plain plane plant " +
    "plate plaza point pound power press price pride prime print prior prize proof proud prove queen " +
    "quick quiet quite radio raise range rapid ratio reach ready realm rebel refer relax reply rider " +
    "ridge rifle right rival river robot rocky round route royal rural salad sauce scale scene scope " +
    "score sense serve seven shade shake shall shape share sharp sheep sheet shelf shell shift shine " +
    "shirt shock shoot short shown sight silly since sixth skill sleep slice slide small smart smile " +
    "smoke snake solid solve sorry sound south space spare speak speed spend spent spice spine split " +
    "spoke sport staff stage stair stake stand start state steam steel steep stick still stock stone " +
    "stood store storm story stove strip stuck study stuff style sugar suite sunny super sweet swing " +
    "sword table taken taste teach teeth thank theme there thick thing think third those three threw " +
    "throw thumb tiger tight timer tired title toast today token topic total touch tough tower toxic " +
    "trace track trade trail train trait treat trend trial tribe trick tried truck truly trust truth " +
    "twice uncle under union unity until upper upset urban usage usual valid value video virus visit " +
    "vital vocal voice waste watch water weigh wheel where which while white whole whose woman world " +
    "worry worse worst worth would wound write wrong wrote yield young youth zebra"
  ).split(" "),
  extra: (
    "abbey acorn adapt adore aisle alley amber ample angel ankle annex apron aroma arrow attic bacon " +
    "badge bagel bails baked banjo barge basil baton beads beams beans beard bears beast beats bells " +
    "belly belts berry bikes birds bison blaze bleak blend bless bliss bloom blunt blush boast boats " +
    "bones bonus books boots bowls boxes brave brick bride brisk broom brush bunch burst cakes camel " +
    "canal cards cares cargo cases cedar cents chips cider cigar cliff clips cloak clown coins cooks " +
    "coral corns couch crack crisp crumb crust dairy daisy dates deals decoy delta denim diary digit " +
    "diner disco ditch dodge donor doors dough drops ducks dwarf eagle easel elbow ember epoch fable " +
    "fairy feast ferry fever flock flute foggy forge fungi gecko ghost glide gloom glove grill groan " +
    "grove guava habit haste hatch haven hazel hedge hinge hippo hobby holly hound husky igloo inlet " +
    "ivory jelly jewel jolly kayak knack knelt koala lance latch lilac linen llama lodge lunar lyric " +
    "mango manor maple marsh melon mercy mirth moose mossy mural noble notch nylon oasis otter oxide " +
    "panda pansy patio pecan perch petal plank plume polar poppy prawn prism pulse quail quilt quota " +
    "raven razor relay rhino robin rogue scarf scout shrub siren skate skunk slate sloth snail sneak " +
    "spade spark spear spool squid stork straw swamp swift syrup talon tango thorn tidal tonic torch " +
    "tulip tweed twine usher vapor vault verse vigor viper waltz wedge whale wheat whisk witch woven " +
    "yacht yeast zesty"
  ).split(" ")
};
