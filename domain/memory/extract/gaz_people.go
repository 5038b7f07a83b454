package extract

// firstNameData lists given names from many cultures. ~ marks names that
// are also common words or months (Will, May, Mark): alone they need a
// person context (met, with, my wife, ...) or a following surname.
const firstNameData = `
Aaron Abby Abdul Abdullah Abigail Abraham Adam Adaeze Adebayo Adele Adeola Aditi Aditya Adrian
Adriana Agnes Ahmad Ahmed Aiden Aisha Akira Akosua Alan Albert Alberto Alejandro Aleksandr Alex
Alexander Alexandra Alexei Alfonso Alfred Ali Alice Alicia Alina Alison Amaka Amal Amanda Amara
Amber~ Amelia Amina Amir Amit Amy Ana Anan Ananya Anders Andrea Andreas Andrei Andrew Andy
Angela Angelica Anika Anil Anita Ann Anna Anne Annie Anthony Antoine Anton Antonio Anya Arash
April~ Ariana Arjun Arnav Arthur Aryan Asha Ashley Astrid Aubrey Audrey August~ Aurelia Austin Ava
Avery Ayesha Aylin Ayumi Barbara Beatriz Ben Benjamin Bernard Beth Bethany Bianca Bill~ Bjorn
Björn Blessing Bob Bobby Bogdan Brandon Brenda Brian Bruno Bryan Caitlin Caleb Camila Camille
Carl Carla Carlos Carmen Carol Caroline Carolyn Casey Catherine Cecilia Chandra Charles Charlie
Charlotte Chase~ Chen Chiamaka Chidi Chiara Chinedu Chioma Chloe Chris Christian Christina
Christine Christopher Chukwuma Cindy Claire Clara Claudia Colin Connor Cristina Curtis Cynthia
Daisuke Daisy Dallas Dan Dana Daniel Daniela Daniele Danielle Darius Darren David Dawn~ Deborah
Deepa Deepak Denis Dennis Derek Devon Diana Diego Dimitri Divya Dmitri Dmitry Dominic Don~ Donald
Donna Dorothy Douglas Drew~ Duc Dylan Ebony Eduardo Edward Ela Elena Eleanor Eli Elias Elif
Elijah Elizabeth Ella Ellen Elliot Emeka Emilia Emily Emma Emmanuel Enrique Eric Erik Erin Esi
Esther Ethan Eugene Eva Evan Evelyn Ewa Fahad Faith~ Farah Farid Fatima Fatma Felipe
Felix Fernando Filip Fiona Florence Francesca Francesco Francis Francisco Frank~ Franz Fred
Frederick Freya Gabriel Gabriela Gabriella Gary Gaurav Gemma Gene~ George Georgia Gerald Gianni
Gina Giovanni Giulia Giuseppe Grace~ Greg Gregory Greta Guillaume Gustavo Hailey Hamid Hana Hannah
Hans Harold Harper Harry Haruka Haruto Hassan Hector Heidi Helen Helena Henrik Henry Hiroshi Hoang
Hong Hugo Hussein Ian Ibrahim Ida Ifeoma Igor Ilya Imran Ines Inês Ingrid Irene Iris Isaac Isabel
Isabella Isabelle Ivan Jack~ Jackson Jacob Jacqueline Jade~ Jake Jakub Jamal James Jamie Jan Jane
Janet Jasmine Jason Javier Jayden Jean Jeff Jeffrey Jenna Jennifer Jenny Jeremy Jerome Jerry
Jesse Jessica Jesus Jiho Jin Joan Joanna Joao João Joe Joel Johan Johann Johannes John Jonas
Jonathan Jordan Jorge Jose José Joseph Josh Joshua Joy~ Juan Judith Julia Julian Juliana Julie
Julien June~ Jun Justin Kai Kamal Kamala Karen Karim Karin Karina Karl Kate Katherine Kathleen
Katie Kavya Kayla Keisha Keith Kelly Ken Kenji Kenneth Kevin Khalid Kim Kimberly Kiran Kofi Kojo
Krishna Kristen Kumar Kwabena Kwame Kyle Lakshmi Lara Larry Laura Lauren Layla Leah Lena Leo Leon
Leonardo Li Liam Lily Lin Linda Ling Lisa Liu Lorenzo Louis Louise Luca Lucas Lucia Lucy Luis
Luisa Luka Lukas Luke Maddison Madison Magnus Mahmoud Maja Malik Manuel Marc Marco Marcus Margaret
Maria María Mariam Marie Marina Mario Marisol Mark~ Marta Martha Martin Mary Mason Mateo Matt
Matteo Matthew Max~ May~ Maya Mehmet Mei Melissa Mia Michael Michelle Miguel Mikhail Mila Min Mina
Ming Miriam Mohamed Mohammed Mohammad Muhammad Monica Nadia Nadine Nam Nancy Naomi Natalia
Natasha Nathan Neha Nicholas Nick Nicola Nicolas Nicole Nikhil Nikita Nikolai Nina Noah Noor
Nora Nour Obi Olga Oliver Olivia Oluwaseun Omar Oscar Osagie Owen Pablo Pamela Paolo Patricia
Patrick Paul Paula Pedro Peter Philip Pierre Pooja Pradeep Prakash Priya Priyanka Qiang Rachel
Rafael Rahul Raj Rajesh Ramón Ramona Rana Raphael Ravi Ray~ Rebecca Reza Ricardo Richard Rita
Robert Roberto Robin Rohan Roman Ronald Rosa Rose~ Ruby Rui Ruth Ryan Sakura Sam Samantha Samir
Samuel Sandra Sanjay Sara Sarah Sasha Satoshi Scott Sean Sebastian Sergei Sergio Seth Shanice
Sharon Shira Shreya Shu Siddharth Simon Simone Siobhan Sipho Sofia Sophia Sophie Stefan Stella
Stephanie Stephen Steve Steven Sun Sunil Susan Svetlana Sydney Tamara Tanya Tara Tariq
Taylor Teresa Thabo Theo Thomas Tiago Tim Timothy Tina Tobias Tom Tomas Tomás Tony Tracy Tyler
Uchenna Valentina Valeria Vanessa Vera Veronica Victor Victoria Vikram Vincent Vivek Vladimir
Walter Wanjiru Wei Wen Will~ William Xavier Xin Yan Yasmin Yasmine Yetunde Yi Yosef Yuki
Yuna Yusuf Yuto Yuri Zainab Zara Zeynep Zhang Zhen Zoe Zoë Zofia Tunde Ngozi Mariana Thiago
Lars Sven Nils Astrid Freja Oskar Elin Kaito Ren Hina Minh Linh Thanh Ngoc Somchai Ploy Arun
Meera Anjali Sneha Rohit Varun Karthik Ama Efua Yaw Kwesi Abena Femi Bola Sade Tendai Farai
`

// surnameData lists family names; a capitalised word before one of them
// reads as a given name ("Jin-woo Park", "Kwabena Mensah"). ~ marks
// surnames that are also common words; those need a known given name.
const surnameData = `
Smith Johnson Williams Brown~ Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez
Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White~ Harris Sanchez Clark
Ramirez Lewis Robinson Walker Young~ Allen King~ Wright Scott Torres Nguyen Hill~ Flores Green~
Adams Nelson Baker Hall~ Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz
Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook~ Rogers Gutierrez Ortiz Morgan
Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood~
James Bennett Gray~ Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long~ Ross
Foster Jimenez Chen Wang Li Zhang Liu Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo
Gao Zheng Liang Xie Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Du Ye
Cheng Wei Lu Ding Shen Jiang Park~ Choi Jung Kang Cho Yoon Jang Lim Han Shin Seo Kwon Hwang Ahn
Song Yoo Hong Jeon Ko Moon Yang Son Bae Baek Tanaka Suzuki Takahashi Watanabe Ito Yamamoto
Nakamura Kobayashi Kato Yoshida Yamada Sasaki Yamaguchi Matsumoto Inoue Kimura Hayashi Shimizu
Sato Tran Le Pham Hoang Phan Vu Vo Dang Bui Do Ngo Duong Ly Singh Kumar Sharma Gupta Shah Mehta
Reddy Rao Iyer Nair Menon Pillai Das Bose Banerjee Chatterjee Mukherjee Joshi Desai Kapoor
Malhotra Verma Agarwal Chopra Khan Ahmed Ali Hussain Rahman Chowdhury Hassan Ibrahim Mahmoud
Mohamed Abdullah Haddad Khoury Nasser Saleh Mansour Aziz Karimi Hosseini Ahmadi Rezaei Yilmaz
Kaya Demir Sahin Celik Ozturk Okafor Okonkwo Adeyemi Adebayo Okoro Eze Nwosu Bello Abubakar Diallo
Diop Ndiaye Traore Mensah Asante Boateng Owusu Osei Appiah Kamau Mwangi Otieno Odhiambo Njoroge
Dlamini Nkosi Ndlovu Mokoena Silva Santos Oliveira Souza Pereira Costa Ferreira Almeida Carvalho
Gomes Ribeiro Rocha Alves Fernandes Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci
Marino Greco Bruno Gallo Conti Costa Mancini Muller Müller Schmidt Schneider Fischer Weber Meyer
Wagner Becker Schulz Hoffmann Schäfer Koch Richter Klein~ Wolf Schröder Neumann Braun Zimmermann
Hartmann Krüger Dubois Durand Leroy Moreau Laurent Simon Michel Lefebvre Bernard Petit~ Roux
Fournier Girard Bonnet Dupont Lambert Fontaine Rousseau Vincent Mercier Jansen Janssen de Vries
Bakker Visser Smit Meijer Mulder Bos Vos Peters Hendriks Dekker Andersson Johansson Karlsson
Nilsson Eriksson Larsson Olsson Persson Svensson Hansen Nielsen Jensen Pedersen Larsen Virtanen
Korhonen Nieminen Nowak Kowalski Wisniewski Wojcik Kowalczyk Kaminski Lewandowski Novak Horvat
Kovac Ivanov Petrov Sidorov Smirnov Kuznetsov Popov Volkov Sokolov Petrova Ivanova Popescu Ionescu
Papadopoulos Georgiou Nikolaidis Cohen Levi Levy Friedman Katz Shapiro Goldberg Rosenberg Murray
O'Brien O'Connor O'Neill Kelly Byrne Ryan Walsh McCarthy Doyle Fitzgerald MacDonald Campbell
Stewart Robertson Fraser Hughes Jenkins Griffiths Davies Osei Ng Tan Lim Teo Goh Ong Chua Koh
Santos Reyes Dela Cruz Bautista Garcia Wijaya Gunawan Hartono Suryadi Chaudhry Siddiqui Qureshi
Gates Jobs Musk Bezos Zuckerberg Nadella Pichai Altman Amodei Hopper Lovelace Turing Knuth
Washington Lincoln~ Kennedy Obama Clinton Bush~ Biden Trump Dubois Becker
`
